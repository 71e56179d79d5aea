#!/bin/bash
# Builds the shader variants that run_next.sh times, on this machine before the device call:
# each is the current shaders/gp file with one patch (variants/NAME.patch), put where
# GLEVO_SHADER_DIR=DEST/NAME finds it. Usage, from the repository root:
#   docs/results/h100-2026-11-23/gp/make_variants.sh build-gpu-gp/variants
set -euo pipefail
here=$(dirname "$0"); dest=$1
for patch in "$here"/variants/*.patch; do
  name=$(basename "$patch" .patch)
  file=$(sed -n 's|^+++ b/||p' "$patch")
  mkdir -p "$dest/$name/gp"
  patch -s -o "$dest/$name/$file" "shaders/$file" < "$patch"
done
mkdir -p "$dest/ceiling/gp"
cp "$here/variants/ceiling/gp/eval.glsl" "$dest/ceiling/gp/"
