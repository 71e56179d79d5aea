// Shader composition for WebGL2, as src/gl/shader_library.c composes for the desktop: a
// preamble, the engine's #defines, then the main file with its #include lines expanded
// ("file" from the shader library, <alias> from the program's aliases, each file once), and
// #line directives numbering every file so that a compile log maps back to file:line. The
// texts come from window.GLEVO_SHADERS (build/web/shaders.js, written by CMake from shaders/)
// or, served over http, are fetched from ../shaders/.
'use strict';
var glevo = window.glevo || (window.glevo = {});

// What GLSL ES 3.00 lacks of the desktop's GLSL 4.10, so that one text serves both.
// `precise` (no fused multiply-add) has no ES equivalent: a no-op here; docs/web.md measures
// what that costs (nothing on SwiftShader: it does not fuse). ldexp is exact for the powers
// of two fbits.glsl asks for (|e| <= 126); umulExtended gives the 64-bit product from four
// 16 x 16-bit products, as Philox needs.
glevo.ES_PREAMBLE = [
  '#version 300 es',
  'precision highp float;',
  'precision highp int;',
  'precision highp sampler2D;',
  'precision highp usampler2D;',
  '#define GLEVO_FRAGMENT 1',
  '#define GLEVO_WEB 1',
  '#define precise',
  'float ldexp(float x, int e) { return x * intBitsToFloat((e + 127) << 23); }',
  'void umulExtended(uint x, uint y, out uint msb, out uint lsb)',
  '{',
  '    uint x0 = x & 0xFFFFu, x1 = x >> 16u, y0 = y & 0xFFFFu, y1 = y >> 16u;',
  '    uint p01 = x0 * y1, p10 = x1 * y0;',
  '    uint mid = ((x0 * y0) >> 16u) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);',
  '    msb = x1 * y1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);',
  '    lsb = x * y;',
  '}',
  ''].join('\n');
glevo.ES_VERTEX_PREAMBLE = '#version 300 es\nprecision highp float;\n';

// Line N of file S is written as #line S * LINE_STRIDE + N, S (the desktop's trick: some
// compilers report the string number 0 whatever #line said).
glevo.LINE_STRIDE = 1 << 20;

glevo.shaderSource = function (name) {
  var lib = window.GLEVO_SHADERS || {};
  if (Object.prototype.hasOwnProperty.call(lib, name)) return lib[name];
  throw new Error("shader file '" + name + "' is not in the shader library");
};

// Loads every library file the page may compose (when no bundle was built: over http).
glevo.loadShaders = function (names) {
  if (window.GLEVO_SHADERS) return Promise.resolve(window.GLEVO_SHADERS);
  if (location.protocol === 'file:')
    return Promise.reject(new Error('no shader bundle: open build/web/index.html (made by ' +
      'cmake --build build), or serve the repository over http'));
  var lib = {};
  return Promise.all(names.map(function (n) {
    return fetch('../shaders/' + n).then(function (r) {
      if (!r.ok) throw new Error('cannot fetch shaders/' + n + ': HTTP ' + r.status);
      return r.text();
    }).then(function (t) { lib[n] = t; });
  })).then(function () { window.GLEVO_SHADERS = lib; return lib; });
};

// Returns {text, files}: files[s] names source string s (0 = the preamble and defines).
// `extra` maps names that are not library files (a user's fitness) to their texts.
glevo.compose = function (preamble, mainFile, defines, aliases, extra) {
  var out = [preamble, defines || ''];
  var files = ['<defines>'];
  function load(name) {
    if (extra && Object.prototype.hasOwnProperty.call(extra, name)) return extra[name];
    return glevo.shaderSource(name);
  }
  function expand(name, depth) {
    if (depth > 16) throw new Error("shader '" + name + "': #include nested too deeply (a cycle?)");
    if (files.indexOf(name) >= 0) return; // include once
    var id = files.length;
    files.push(name);
    var lines = load(name).split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    out.push('#line ' + (id * glevo.LINE_STRIDE + 1) + ' ' + id + '\n');
    for (var i = 0; i < lines.length; ++i) {
      var m = /^\s*#include\s*(?:"([^"]+)"|<([^>]+)>)/.exec(lines[i]);
      if (!m && /^\s*#include/.test(lines[i]))
        throw new Error(name + ':' + (i + 1) + ': malformed #include');
      if (!m) {
        out.push(lines[i] + '\n');
        continue;
      }
      var target = m[1];
      if (m[2] !== undefined) {
        target = aliases && aliases[m[2]];
        if (!target)
          throw new Error(name + ':' + (i + 1) + ': #include <' + m[2] + '> names no alias ' +
                          'given to this program');
      }
      expand(target, depth + 1);
      out.push('#line ' + (id * glevo.LINE_STRIDE + i + 2) + ' ' + id + '\n');
    }
  }
  expand(mainFile, 0);
  return {text: out.join(''), files: files};
};

// Rewrites ANGLE's "ERROR: 0:1048599: 'x' : ..." into "user.glsl:23: 'x' : ...".
glevo.rewriteLog = function (log, files) {
  return String(log || '').replace(/(ERROR|WARNING): (\d+):(\d+):/g, function (all, kind, s, n) {
    var line = Number(n), file = Math.floor(line / glevo.LINE_STRIDE);
    if (file === 0 && Number(s) > 0) file = Number(s);
    var name = files[file] || files[Number(s)] || '<source ' + s + '>';
    return name + ':' + (line % glevo.LINE_STRIDE) + ': ' + kind.toLowerCase() + ':';
  });
};

// Errors of the log that fall in file `name`, as [{line, text}].
glevo.errorsIn = function (log, name) {
  var found = [];
  String(log).split('\n').forEach(function (l) {
    var m = /^(.+?):(\d+): error:(.*)$/.exec(l);
    if (m && m[1] === name) found.push({line: Number(m[2]), text: m[3].trim()});
  });
  return found;
};
