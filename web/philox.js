// Philox4x32-10 in JavaScript: the twin of shaders/rng/philox.glsl and src/rng/philox.c, for
// the initial population, which the desktop also draws on the host (cga_init_cpu in
// src/cga/fitness.c): gene c of texture t of cell (x, y) is the high word of r[c] * 2^L, r the
// Philox words of counter (y * W + x, 0xFFFFFFFF, 0 = CGA_PASS_INIT, t) under key (seed, 0).
'use strict';
var glevo = window.glevo || (window.glevo = {});

// The 64-bit product of two 32-bit words as [hi, lo] (umulExtended).
glevo.mulhilo = function (a, b) {
  var a0 = a & 0xFFFF, a1 = a >>> 16, b0 = b & 0xFFFF, b1 = b >>> 16;
  var p01 = a0 * b1, p10 = a1 * b0; // < 2^32: exact in a double
  var mid = ((a0 * b0) >>> 16) + (p01 & 0xFFFF) + (p10 & 0xFFFF);
  var hi = (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16)) >>> 0;
  return [hi, Math.imul(a, b) >>> 0];
};

glevo.philox4x32 = function (c0, c1, c2, c3, k0, k1) {
  for (var round = 0; round < 10; ++round) {
    var m0 = glevo.mulhilo(0xD2511F53, c0 >>> 0), m1 = glevo.mulhilo(0xCD9E8D57, c2 >>> 0);
    var n0 = (m1[0] ^ c1 ^ k0) >>> 0, n2 = (m0[0] ^ c3 ^ k1) >>> 0;
    c0 = n0; c1 = m1[1]; c2 = n2; c3 = m0[1];
    k0 = (k0 + 0x9E3779B9) >>> 0;
    k1 = (k1 + 0xBB67AE85) >>> 0;
  }
  return [c0 >>> 0, c1 >>> 0, c2 >>> 0, c3 >>> 0];
};

// Texture t's RGBA texels (row-major, y = 0 first) of the initial population.
glevo.initialGenes = function (width, height, dim, bits, seed, t) {
  var out = new Float32Array(width * height * 4);
  for (var y = 0; y < height; ++y)
    for (var x = 0; x < width; ++x) {
      var texel = y * width + x;
      var r = glevo.philox4x32(texel, 0xFFFFFFFF, 0, t, seed >>> 0, 0);
      for (var c = 0; c < 4; ++c)
        out[4 * texel + c] = 4 * t + c < dim ? glevo.mulhilo(r[c], Math.pow(2, bits))[0] : 0;
    }
  return out;
};
