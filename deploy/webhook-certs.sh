#!/usr/bin/env bash
# deploy/webhook-certs.sh — the webhook's serving certificate without cert-manager: a CA and
# a certificate for fitscale.fitscale.svc made with openssl, stored as the secret fitscale-tls
# that deploy/fitscale.yaml mounts, and the CA set as the caBundle of deploy/webhook.yaml's
# MutatingWebhookConfiguration (applied without its cert-manager objects).  Run it again
# before the certificate expires (--days, 365 by default) and restart fitscale.
# Usage: deploy/webhook-certs.sh [--namespace fitscale] [--days 365] [--dir DIR] [--dry-run]
#   --dry-run: make the files in DIR and print the manifests instead of applying them.
set -euo pipefail
namespace=fitscale days=365 dir= dry_run=0
while [ $# -gt 0 ]; do
  case $1 in
    --namespace) namespace=$2; shift 2 ;;
    --days) days=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    *) echo "usage: deploy/webhook-certs.sh [--namespace NS] [--days N] [--dir DIR] [--dry-run]" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$dir" ]; then dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; else mkdir -p "$dir"; fi
service="fitscale.$namespace.svc"
openssl req -x509 -newkey rsa:2048 -nodes -days "$days" -subj "/CN=fitscale-webhook-ca" \
  -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$service" -keyout "$dir/tls.key" -out "$dir/tls.csr" 2>/dev/null
printf 'subjectAltName=DNS:%s,DNS:%s.cluster.local\nextendedKeyUsage=serverAuth\n' "$service" "$service" >"$dir/ext.cnf"
openssl x509 -req -in "$dir/tls.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days "$days" \
  -extfile "$dir/ext.cnf" -out "$dir/tls.crt" 2>/dev/null
openssl verify -CAfile "$dir/ca.crt" "$dir/tls.crt" >/dev/null
ca_bundle=$(base64 <"$dir/ca.crt" | tr -d '\n')
# the webhook configuration without the cert-manager objects, the CA set
webhook=$(awk 'BEGIN { RS = "\n---\n"; ORS = "" } /kind: MutatingWebhookConfiguration/ { print }' "$here/webhook.yaml" \
  | sed -e '/cert-manager.io\/inject-ca-from/d' -e '/^  annotations:$/d' -e "s|namespace: fitscale$|namespace: $namespace|" \
        -e "s|^    service:|    caBundle: $ca_bundle\n    service:|")
if [ "$dry_run" = 1 ]; then
  echo "# secret $namespace/fitscale-tls from $dir/tls.crt and $dir/tls.key"
  printf '%s\n' "$webhook"
  exit 0
fi
kubectl -n "$namespace" create secret tls fitscale-tls --cert "$dir/tls.crt" --key "$dir/tls.key" \
  --dry-run=client -o yaml | kubectl apply -f -
printf '%s\n' "$webhook" | kubectl apply -f -
