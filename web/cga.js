// The cellular GA's fragment driver in WebGL2: the passes of src/cga/fragment.c (fitness,
// the 2x2 reduction levels of src/reduce/reduce_gpu.c, keep best, selection, crossover
// points, crossover, mutation), each a full-screen triangle into its own texture set, with
// the same programs (shaders/cga/*.glsl composed with the same defines), the same uniform
// block (cga_uniforms in src/cga/passes.h) and the same initial population.
'use strict';
var glevo = window.glevo || (window.glevo = {});

// The built-in problems (src/problems/*.c): snippet, default or fixed dimension, domain and
// direction.
glevo.PROBLEMS = {
  camel: {snippet: 'problems/camel.glsl', dim: 2, fixed: true, lower: -100, upper: 100, max: false},
  sphere: {snippet: 'problems/sphere.glsl', dim: 10, lower: -100, upper: 100, max: false},
  rastrigin: {snippet: 'problems/rastrigin.glsl', dim: 10, lower: -5.12, upper: 5.12, max: false},
  ackley: {snippet: 'problems/ackley.glsl', dim: 10, lower: -32.768, upper: 32.768, max: false},
  griewank: {snippet: 'problems/griewank.glsl', dim: 10, lower: -600, upper: 600, max: false},
  rosenbrock: {snippet: 'problems/rosenbrock.glsl', dim: 10, lower: -100, upper: 100, max: false},
  schwefel: {snippet: 'problems/schwefel.glsl', dim: 2, lower: -500, upper: 500, max: false},
  schaffer: {snippet: 'problems/schaffer.glsl', dim: 2, fixed: true, lower: -100, upper: 100, max: true}
};
glevo.NEIGHBOURHOODS = ['moore', 'von-neumann', 'moore5']; // the enum's order (cga.c)
// Counter word 2 of the random draws (CGA_PASS_* in src/cga/passes.h).
var PASS_SELECT = 1, PASS_XPOINTS = 2, PASS_MUTATE = 3;
// sizeof(cga_uniforms): 64 bytes of scalars, vec4 u_flip_cdf[24], then what the block grew
// since (the page asks the programs for the block's size and leaves those words 0).
var UNIFORM_BYTES = 448;

// A compile or link failure, its log already naming file:line.
glevo.ShaderError = function (pass, log) {
  this.name = 'ShaderError';
  this.pass = pass;
  this.log = log;
  this.message = pass + ': ' + log;
};
glevo.ShaderError.prototype = Object.create(Error.prototype);

// Checks what the page needs; returns null or a sentence saying what is missing.
glevo.checkSupport = function (gl, withoutFloat) {
  if (!gl) return 'This browser offers no WebGL2 context: the passes need WebGL2 ' +
    '(GLSL ES 3.00, float textures, several render targets).';
  if (withoutFloat || !gl.getExtension('EXT_color_buffer_float')) return 'This browser\'s WebGL2 lacks ' +
    'EXT_color_buffer_float: the population lives in RGBA32F textures that passes render into.';
  return null;
};

function compileShader(gl, type, composed, pass) {
  var s = gl.createShader(type);
  gl.shaderSource(s, composed.text);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
    var log = glevo.rewriteLog(gl.getShaderInfoLog(s), composed.files);
    gl.deleteShader(s);
    throw new glevo.ShaderError(pass, log);
  }
  return s;
}

// A program: the shared vertex shader and one composed fragment file. samplers: [name,
// count] in unit order (gpu.c's slot tables).
glevo.buildProgram = function (gl, desc) {
  var vs = glevo.compose(glevo.ES_VERTEX_PREAMBLE, 'common/fullscreen_vertex.glsl', '');
  var fs = glevo.compose(glevo.ES_PREAMBLE, desc.file, desc.defines, desc.aliases, desc.extra);
  var p = gl.createProgram();
  var v = compileShader(gl, gl.VERTEX_SHADER, vs, desc.name);
  var f = compileShader(gl, gl.FRAGMENT_SHADER, fs, desc.name);
  gl.attachShader(p, v);
  gl.attachShader(p, f);
  gl.linkProgram(p);
  gl.deleteShader(v);
  gl.deleteShader(f);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS))
    throw new glevo.ShaderError(desc.name, glevo.rewriteLog(gl.getProgramInfoLog(p), fs.files));
  gl.useProgram(p);
  var unit = 0, units = {};
  (desc.samplers || []).forEach(function (s) {
    var loc = gl.getUniformLocation(p, s[0]), list = [];
    for (var k = 0; k < s[1]; ++k) list.push(unit + k);
    if (loc) gl.uniform1iv(loc, list);
    units[s[0]] = unit;
    unit += s[1];
  });
  var block = gl.getUniformBlockIndex(p, 'pass_uniforms');
  if (block !== gl.INVALID_INDEX) gl.uniformBlockBinding(p, block, 0);
  return {name: desc.name, file: desc.file, program: p, units: units, composed: fs.text,
          files: fs.files};
};

// A 2-D texture sampled by texelFetch only (NEAREST: float textures filter only with an
// extension). internal: R32F, RG32F, RGBA32F or RGBA32UI.
glevo.texture = function (gl, w, h, internal, data) {
  var t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  var formats = {};
  formats[gl.R32F] = [gl.RED, gl.FLOAT];
  formats[gl.RG32F] = [gl.RG, gl.FLOAT];
  formats[gl.RGBA32F] = [gl.RGBA, gl.FLOAT];
  formats[gl.RGBA32UI] = [gl.RGBA_INTEGER, gl.UNSIGNED_INT];
  var f = formats[internal];
  gl.texImage2D(gl.TEXTURE_2D, 0, internal, w, h, 0, f[0], f[1], data || null);
  t.width = w;
  t.height = h;
  return t;
};
var texture = glevo.texture;

// params: width, height, dim, bits, pc, pm, neighbourhood (index), seed, problem {snippet,
// lower, upper, max}, userText (the editor's fitness, aliased as user.glsl).
glevo.Cga = function (gl, params) {
  this.gl = gl;
  this.params = params;
  var w = params.width, h = params.height, m = Math.ceil(params.dim / 4);
  this.textures = m;
  if (m > gl.getParameter(gl.MAX_DRAW_BUFFERS))
    throw new Error('dim ' + params.dim + ' needs ' + m + ' render targets; this browser has ' +
                    gl.getParameter(gl.MAX_DRAW_BUFFERS));
  this.sign = params.problem.max ? 1 : -1;
  this.lower = Math.fround(params.problem.lower);
  this.step = Math.fround((params.problem.upper - params.problem.lower) / (Math.pow(2, params.bits) - 1));
  this.generation = 0;
  this.nextPass = 0;
  this.history = []; // per generation: {generation, bestSoFar, best, mean}

  var defines = '#define GENE_TEXTURES ' + m + '\n#define DIM ' + params.dim +
    '\n#define NEIGHBOURHOOD ' + params.neighbourhood + '\n#define PASS_SELECT ' + PASS_SELECT +
    'u\n#define PASS_XPOINTS ' + PASS_XPOINTS + 'u\n#define PASS_MUTATE ' + PASS_MUTATE + 'u\n' +
    (params.mutation === 'skip' ? '#define MUTATION_SKIP 1\n' : '') +
    (this.sign > 0 ? '#define REDUCE_MAX 1\n' : '');
  this.defines = defines;
  // cga_mutation_init (src/cga/mutate.c): flip_cdf[k - 1] = 1 - (1 - pm)^k in double, then
  // rounded to float. V8's expm1 and log1p (fdlibm) are within an ulp of glibc's in double,
  // which the rounding to float absorbs (the skip runs of tests/web match the CLI's).
  this.flipCdf = new Float32Array(96);
  for (var k = 1; k <= 96; ++k)
    this.flipCdf[k - 1] = params.pm >= 1 ? 1 :
      -Math.expm1(k * Math.log1p(-Math.min(params.pm, 1 - 1e-16)));
  var problemFile = params.userText !== undefined ? 'user.glsl' : params.problem.snippet;
  var extra = params.userText !== undefined ? {'user.glsl': params.userText} : undefined;
  function build(name, file, samplers, aliases) {
    return glevo.buildProgram(gl, {name: name, file: file, defines: defines, samplers: samplers,
                                   aliases: aliases, extra: extra});
  }
  // The fitness first: a user's fitness file is the likeliest to fail.
  this.programs = {
    fitness: build('cga.fitness', 'cga/fitness.glsl', [['t_genes', m]], {problem: problemFile}),
    keep: build('cga.keep_best', 'cga/keep_best.glsl', [['t_reduced', 1], ['t_record', 1], ['t_genes', m]]),
    select: build('cga.select', 'cga/select.glsl', [['t_fitness', 1], ['t_genes', m]]),
    xpoints: build('cga.crossover_points', 'cga/crossover_points.glsl', []),
    crossover: build('cga.crossover', 'cga/crossover.glsl', [['t_genes', m], ['t_points', m]]),
    mutate: build('cga.mutate', 'cga/mutate.glsl', [['t_genes', m]])
  };
  var reduceName = this.sign > 0 ? 'reduce.max' : 'reduce.min';
  this.programs.reduce = glevo.buildProgram(gl, {name: reduceName, file: 'reduce/best.glsl',
    defines: '#define REDUCE_GROUP 256\n' + (this.sign > 0 ? '#define REDUCE_MAX 1\n' : ''),
    samplers: [['t_input', 1]]});

  function set(internal, tw, th, fill) {
    var list = [];
    for (var t = 0; t < m; ++t) list.push(texture(gl, tw, th, internal, fill ? fill(t) : null));
    return list;
  }
  this.current = set(gl.RGBA32F, w, h, function (t) {
    return glevo.initialGenes(w, h, params.dim, params.bits, params.seed, t);
  });
  this.selected = set(gl.RGBA32F, w, h);
  this.crossed = set(gl.RGBA32F, w, h);
  this.points = set(gl.RGBA32F, w / 2, h);
  this.fitness = texture(gl, w, h, gl.R32F);
  this.record = [texture(gl, 1 + m, 1, gl.RGBA32F, new Float32Array(4 * (1 + m))),
                 texture(gl, 1 + m, 1, gl.RGBA32F, new Float32Array(4 * (1 + m)))];
  this.recordIndex = 0;
  // The reduction chain: ceil(W/2) x ceil(H/2), ... down to 1 x 1, each level's block static.
  this.levels = [];
  var lw = w, lh = h, src = this.fitness;
  do {
    lw = Math.ceil(lw / 2);
    lh = Math.ceil(lh / 2);
    var ubo = gl.createBuffer();
    gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
    gl.bufferData(gl.UNIFORM_BUFFER, new Int32Array([src.width, src.height,
                                                     this.levels.length === 0 ? 1 : 0, 0]), gl.STATIC_DRAW);
    var level = texture(gl, lw, lh, gl.RGBA32F);
    this.levels.push({texture: level, ubo: ubo});
    src = level;
  } while (lw > 1 || lh > 1);
  this.blockBytes = UNIFORM_BYTES;
  Object.keys(this.programs).forEach(function (k) {
    var prog = this.programs[k].program, block = gl.getUniformBlockIndex(prog, 'pass_uniforms');
    if (k !== 'reduce' && block !== gl.INVALID_INDEX)
      this.blockBytes = Math.max(this.blockBytes, gl.getActiveUniformBlockParameter(
        prog, block, gl.UNIFORM_BLOCK_DATA_SIZE));
  }, this);
  this.ubo = gl.createBuffer();
  gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
  gl.bufferData(gl.UNIFORM_BUFFER, this.blockBytes, gl.DYNAMIC_DRAW);
  this.fbos = new Map();
  this.readFbo = gl.createFramebuffer();
  this.passes = this.passList();
  this.timer = gl.getExtension('EXT_disjoint_timer_query_webgl2');
};

var proto = glevo.Cga.prototype;

// Writes the block of cga_gpu_uniforms (src/cga/gpu.c) for this generation.
proto.uniforms = function () {
  var b = new ArrayBuffer(this.blockBytes), u = new Uint32Array(b), i = new Int32Array(b),
    f = new Float32Array(b), p = this.params;
  // u_rng_offset (words 0-3) stays 0: the page draws from Philox, not the 2008 table.
  i[4] = p.width; i[5] = p.height;
  u[6] = p.seed >>> 0; u[7] = 0;             // u_key = (seed, stream 0)
  i[8] = p.bits;
  u[9] = this.generation >>> 0;
  f[10] = this.lower; f[11] = this.step; f[12] = this.sign;
  f[13] = this.generation + 1;
  f[14] = p.pc; f[15] = p.pm;                // rounded to float as (float)params.pc is
  f.set(this.flipCdf, 16);                   // u_flip_cdf, read by MUTATION_SKIP only
  // u_block (words 112-115) is the blocked compute kernel's: 0 here, as the desktop's
  // fragment driver leaves it.
  var gl = this.gl;
  gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
  gl.bufferSubData(gl.UNIFORM_BUFFER, 0, b);
};

proto.framebuffer = function (targets) {
  var gl = this.gl;
  var fbo = this.fbos.get(targets[0]);
  if (fbo) return fbo;
  fbo = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  var buffers = [];
  targets.forEach(function (t, k) {
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + k, gl.TEXTURE_2D, t, 0);
    buffers.push(gl.COLOR_ATTACHMENT0 + k);
  });
  gl.drawBuffers(buffers);
  var status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
  if (status !== gl.FRAMEBUFFER_COMPLETE)
    throw new Error('framebuffer of ' + targets.length + ' float textures is incomplete (0x' +
                    status.toString(16) + ')');
  this.fbos.set(targets[0], fbo);
  return fbo;
};

// One draw: inputs {sampler name: [textures]} on the program's units, into `targets`.
proto.draw = function (prog, inputs, targets, ubo) {
  var gl = this.gl;
  gl.bindFramebuffer(gl.FRAMEBUFFER, this.framebuffer(targets));
  gl.viewport(0, 0, targets[0].width, targets[0].height);
  gl.useProgram(prog.program);
  Object.keys(inputs).forEach(function (name) {
    inputs[name].forEach(function (t, k) {
      gl.activeTexture(gl.TEXTURE0 + prog.units[name] + k);
      gl.bindTexture(gl.TEXTURE_2D, t);
    });
  });
  gl.bindBufferBase(gl.UNIFORM_BUFFER, 0, ubo);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
};

// The generation's passes in fragment_generation's order: {name, file, output, run}.
proto.passList = function () {
  var self = this, P = this.programs, list = [];
  list.push({name: 'cga.fitness', program: P.fitness, output: function () { return [self.fitness]; },
             run: function () {
               self.uniforms();
               self.draw(P.fitness, {t_genes: self.current}, [self.fitness], self.ubo);
             }});
  this.levels.forEach(function (level, k) {
    var src = k === 0 ? self.fitness : self.levels[k - 1].texture;
    list.push({name: P.reduce.name + ' ' + (k + 1) + '/' + self.levels.length, program: P.reduce,
               output: function () { return [level.texture]; },
               run: function () { self.draw(P.reduce, {t_input: [src]}, [level.texture], level.ubo); }});
  });
  var reduced = this.levels[this.levels.length - 1].texture;
  list.push({name: 'cga.keep_best', program: P.keep,
             output: function () { return [self.record[self.recordIndex]]; },
             run: function () {
               var i = self.recordIndex;
               self.draw(P.keep, {t_reduced: [reduced], t_record: [self.record[i]], t_genes: self.current},
                         [self.record[1 - i]], self.ubo);
               self.recordIndex = 1 - i;
             }});
  list.push({name: 'cga.select', program: P.select, output: function () { return self.selected; },
             run: function () {
               self.draw(P.select, {t_fitness: [self.fitness], t_genes: self.current}, self.selected, self.ubo);
             }});
  list.push({name: 'cga.crossover_points', program: P.xpoints, output: function () { return self.points; },
             run: function () { self.draw(P.xpoints, {}, self.points, self.ubo); }});
  list.push({name: 'cga.crossover', program: P.crossover, output: function () { return self.crossed; },
             run: function () {
               self.draw(P.crossover, {t_genes: self.selected, t_points: self.points}, self.crossed, self.ubo);
             }});
  list.push({name: 'cga.mutate', program: P.mutate, output: function () { return self.current; },
             run: function () {
               self.draw(P.mutate, {t_genes: self.crossed}, self.current, self.ubo);
             }});
  return list;
};

// Runs the next pass; returns it. After the last, the generation is over and recorded.
proto.stepPass = function () {
  var pass = this.passes[this.nextPass];
  pass.run();
  this.nextPass = (this.nextPass + 1) % this.passes.length;
  if (this.nextPass === 0) this.endGeneration();
  return pass;
};

proto.runGeneration = function () {
  do this.stepPass(); while (this.nextPass !== 0);
};

proto.read = function (tex) {
  var gl = this.gl, out = new Float32Array(tex.width * tex.height * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, this.readFbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  gl.readPixels(0, 0, tex.width, tex.height, gl.RGBA, gl.FLOAT, out);
  return out;
};

// The CLI's trace row (cmd_cga.c with --report-every 1): best so far from the record, then
// glevo_cga_stats_get's best and mean of the fitness the generation computed (a double sum
// in cell order, so the mean matches too).
proto.endGeneration = function () {
  this.generation++;
  // A draw WebGL refused (a uniform buffer smaller than the block, a feedback loop) leaves
  // its target untouched: say so once rather than plot stale numbers.
  var error = this.generation === 1 ? this.gl.getError() : 0;
  if (error) throw new Error('WebGL error 0x' + error.toString(16) + ' in the first generation\'s passes');
  var f = this.read(this.fitness), cells = this.params.width * this.params.height;
  var sum = 0, best = -Infinity, worst = Infinity;
  for (var i = 0; i < cells; ++i) {
    var s = this.sign * f[4 * i];
    sum += f[4 * i];
    if (s > best) best = s; // fmax: a NaN never wins
    if (s < worst) worst = s;
  }
  var rec = this.read(this.record[this.recordIndex]);
  this.lastFitness = f;
  this.lastRecord = rec;
  this.history.push({generation: this.generation, bestSoFar: rec[3] === 0 ? NaN : rec[0],
                     best: this.sign * best, mean: sum / cells, worst: this.sign * worst});
};

// Per-pass times over `generations` generations: GPU time from EXT_disjoint_timer_query_webgl2
// where the browser has it, else wall time around each pass ended by a 1-texel readback.
proto.profile = function (generations) {
  var gl = this.gl, timer = this.timer, self = this, totals = {}, order = [];
  var queries = [], px = new Float32Array(4);
  // Pass by pass without endGeneration's readbacks: call it on an engine of its own. One
  // generation first, untimed: drivers compile a program at its first draw.
  this.passes.forEach(function (pass) { pass.run(); });
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, px);
  for (var g = 0; g < generations; ++g) {
    this.passes.forEach(function (pass) {
      var key = pass.name.replace(/ \d+\/\d+$/, ' (each level)');
      if (!(key in totals)) { totals[key] = {sum: 0, count: 0}; order.push(key); }
      if (timer) {
        var q = gl.createQuery();
        gl.beginQuery(timer.TIME_ELAPSED_EXT, q);
        pass.run();
        gl.endQuery(timer.TIME_ELAPSED_EXT);
        queries.push({q: q, key: key});
      } else {
        var t0 = performance.now();
        pass.run();
        gl.bindFramebuffer(gl.FRAMEBUFFER, self.readFbo);
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D,
                                pass.output()[0], 0);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, px);
        totals[key].sum += (performance.now() - t0) * 1000;
        totals[key].count++;
      }
    });
    this.generation++;
  }
  var finish = function () {
    return order.map(function (key) {
      return {pass: key, us: totals[key].count ? totals[key].sum / totals[key].count : NaN};
    });
  };
  if (!timer) return Promise.resolve({source: 'wall time with a 1-texel readback', rows: finish()});
  return new Promise(function (resolve) {
    (function poll() {
      var pending = queries.some(function (e) {
        return !gl.getQueryParameter(e.q, gl.QUERY_RESULT_AVAILABLE);
      });
      if (pending) return setTimeout(poll, 10);
      queries.forEach(function (e) {
        totals[e.key].sum += gl.getQueryParameter(e.q, gl.QUERY_RESULT) / 1000;
        totals[e.key].count++;
        gl.deleteQuery(e.q);
      });
      resolve({source: 'EXT_disjoint_timer_query_webgl2 (GPU time)', rows: finish()});
    })();
  });
};

proto.destroy = function () {
  var gl = this.gl;
  Object.keys(this.programs).forEach(function (k) { gl.deleteProgram(this.programs[k].program); }, this);
  [this.current, this.selected, this.crossed, this.points, this.record].forEach(function (list) {
    list.forEach(function (t) { gl.deleteTexture(t); });
  });
  gl.deleteTexture(this.fitness);
  this.levels.forEach(function (l) { gl.deleteTexture(l.texture); gl.deleteBuffer(l.ubo); });
  this.fbos.forEach(function (f) { gl.deleteFramebuffer(f); });
  gl.deleteFramebuffer(this.readFbo);
  gl.deleteBuffer(this.ubo);
};
