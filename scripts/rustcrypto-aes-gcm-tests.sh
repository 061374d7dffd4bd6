#!/usr/bin/env bash
# RustCrypto aes-gcm 0.11's own tests (the `tests/` directory of the published crate), run
# unchanged against aeslab through the shim crate compat/aes-gcm. The published crate's source
# comes from cargo's registry: the CLI depends on aes-gcm 0.11 (a peer in the benches), so
# `cargo metadata` names the directory it was unpacked into.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(cargo metadata --format-version 1 --manifest-path crates/aeslab-cli/Cargo.toml |
    python3 -c 'import json,sys
pkgs = json.load(sys.stdin)["packages"]
print(next(p["manifest_path"] for p in pkgs if p["name"] == "aes-gcm" and p["version"].startswith("0.11.")))')
src=$(dirname "$src")
echo "RustCrypto's tests from $src/tests"
rm -rf compat/aes-gcm/tests
cp -r "$src/tests" compat/aes-gcm/tests
cargo test --release --manifest-path compat/aes-gcm/Cargo.toml "$@"
