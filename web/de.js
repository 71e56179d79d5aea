// The second exhibit: differential evolution's two fused fragment passes (Qin et al. 2012's
// cudaDE_i idea as render passes; src/de/fragment.c and gpu.c): de.trial derives each
// individual's r1, r2, r3, jrand and trial genes from the counter RNG, evaluates the trial and
// writes (fitness, accept flag) and the choices; de.select writes the next population, one
// fragment per gene. best/1 strategies first reduce the fitness to its best texel. The
// programs are shaders/de/*.glsl, composed with the defines of de_shader_defines (src/de/de.c).
'use strict';
var glevo = window.glevo || (window.glevo = {});

// DE's counter words (src/de/de_stream.h) and strategies (glevo_de_strategy's order).
var DE_STREAM = 0xDE, DE_PASS_INIT = 1, DE_PASS_INDEX = 2, DE_PASS_CROSS = 3, DE_PASS_BOUND = 4;
glevo.DE_STRATEGIES = ['rand1bin', 'best1bin', 'current-to-best1bin', 'rand1exp'];
glevo.DE_PROBLEMS = ['sphere', 'rosenbrock', 'rastrigin', 'griewank', 'ackley'];
var INIT_BOUNDS = {griewank: [0, 600]}; // init_lower, init_upper where not the domain

// The CEC 2005 shifts are not in the page: runs compare with `glevo de --shift none`.
// params: problem (name), dim, np, F, CR, strategy (index), seed.
glevo.De = function (gl, params) {
  var p = params, prob = glevo.PROBLEMS[p.problem];
  this.gl = gl;
  this.params = p;
  this.max = prob.max;
  this.perRow = Math.min(p.np, Math.max(1, Math.ceil(Math.sqrt(p.np / p.dim)))); // choose_per_row
  this.rows = Math.ceil(p.np / this.perRow);
  this.generation = 0;
  this.history = [];
  var defines = '#define DE_STRATEGY ' + p.strategy + '\n' + (prob.max ? '#define DE_MAXIMIZE 1\n' : '') +
    '#define DE_PASS_INDEX ' + DE_PASS_INDEX + 'u\n#define DE_PASS_CROSS ' + DE_PASS_CROSS +
    'u\n#define DE_PASS_BOUND ' + DE_PASS_BOUND + 'u\n';
  var samplers = [['t_population', 1], ['t_bounds', 1], ['t_best', 1], ['t_fitness', 1], ['t_choice', 1]];
  var build = function (name, file) {
    return glevo.buildProgram(gl, {name: name, file: file, defines: defines, samplers: samplers,
                                   aliases: {problem: prob.snippet}});
  };
  this.programs = {evaluate: build('de.evaluate', 'de/evaluate.glsl'),
                   trial: build('de.trial', 'de/trial.glsl'), select: build('de.select', 'de/select.glsl')};
  this.usesBest = p.strategy === 1 || p.strategy === 2;
  this.programs.reduce = glevo.buildProgram(gl, {name: prob.max ? 'reduce.max' : 'reduce.min',
    file: 'reduce/best.glsl', defines: '#define REDUCE_GROUP 256\n' + (prob.max ? '#define REDUCE_MAX 1\n' : ''),
    samplers: [['t_input', 1]]});

  // Initial genes on the host (glevo_de_create): y = lo + u (hi - lo) in float, u from
  // counter (i, 0, DE_PASS_INIT, j / 4), word j % 4.
  var F = Math.fround, W = this.perRow * p.dim, genes = new Float32Array(W * this.rows);
  var init = INIT_BOUNDS[p.problem] || [prob.lower, prob.upper];
  var lo = F(init[0]), hi = F(init[1]);
  for (var i = 0; i < p.np; ++i)
    for (var j = 0; j < p.dim; ++j) {
      var w = glevo.philox4x32(i, 0, DE_PASS_INIT, j >>> 2, p.seed >>> 0, DE_STREAM);
      var u = (w[j & 3] >>> 8) / 16777216;
      genes[i * p.dim + j] = F(lo + F(u * F(hi - lo)));
    }
  var bounds = new Float32Array(2 * p.dim);
  for (j = 0; j < p.dim; ++j) { bounds[2 * j] = prob.lower; bounds[2 * j + 1] = prob.upper; }
  this.pop = [glevo.texture(gl, W, this.rows, gl.R32F, genes), glevo.texture(gl, W, this.rows, gl.R32F)];
  this.fit = [glevo.texture(gl, this.perRow, this.rows, gl.RG32F),
              glevo.texture(gl, this.perRow, this.rows, gl.RG32F)];
  this.choice = glevo.texture(gl, this.perRow, this.rows, gl.RGBA32UI);
  this.bounds = glevo.texture(gl, p.dim, 1, gl.RG32F, bounds);
  this.cur = 0;
  this.levels = [];
  var lw = this.perRow, lh = this.rows, src = this.fit[0];
  do {
    lw = Math.ceil(lw / 2);
    lh = Math.ceil(lh / 2);
    var ubo = gl.createBuffer();
    gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
    gl.bufferData(gl.UNIFORM_BUFFER, new Int32Array([src.width, src.height, this.levels.length === 0 ? 1 : 0, 0]),
                  gl.STATIC_DRAW);
    this.levels.push({texture: glevo.texture(gl, lw, lh, gl.RGBA32F), ubo: ubo});
    src = this.levels[this.levels.length - 1].texture;
  } while (lw > 1 || lh > 1);
  // de_uniforms is 48 bytes; should the block grow, the programs say by how much.
  var trial = this.programs.trial.program;
  this.blockBytes = Math.max(48, gl.getActiveUniformBlockParameter(
    trial, gl.getUniformBlockIndex(trial, 'pass_uniforms'), gl.UNIFORM_BLOCK_DATA_SIZE));
  this.ubo = gl.createBuffer();
  gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
  gl.bufferData(gl.UNIFORM_BUFFER, this.blockBytes, gl.DYNAMIC_DRAW);
  this.fbos = new Map();
  this.readFbo = gl.createFramebuffer();
  this.passes = this.passList();
  this.uniforms(0);
  this.draw(this.programs.evaluate, {t_population: this.pop[0]}, [this.fit[0]], this.ubo);
};

var de = glevo.De.prototype;

// de_uniforms (src/de/de_internal.h), 48 bytes std140.
de.uniforms = function (g) {
  var b = new ArrayBuffer(this.blockBytes), u = new Uint32Array(b), i = new Int32Array(b), f = new Float32Array(b);
  var p = this.params;
  u[0] = p.seed >>> 0; u[1] = DE_STREAM; u[2] = g;
  i[3] = p.np; i[4] = p.dim; i[5] = this.perRow;
  f[6] = p.F; f[7] = p.CR; f[8] = 0;  // u_shift_add: 0 without CEC shifts
  var gl = this.gl;
  gl.bindBuffer(gl.UNIFORM_BUFFER, this.ubo);
  gl.bufferSubData(gl.UNIFORM_BUFFER, 0, b);
};

de.draw = function (prog, inputs, targets, ubo) {
  var gl = this.gl, key = targets.map(function (t) { return glevo.De.id(t); }).join(',');
  var fbo = this.fbos.get(key);
  if (!fbo) {
    fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    targets.forEach(function (t, k) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + k, gl.TEXTURE_2D, t, 0);
    });
    gl.drawBuffers(targets.map(function (t, k) { return gl.COLOR_ATTACHMENT0 + k; }));
    this.fbos.set(key, fbo);
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.viewport(0, 0, targets[0].width, targets[0].height);
  gl.useProgram(prog.program);
  // Every unit of the program gets its input or nothing: a texture left bound from the
  // previous pass may be this pass's target.
  Object.keys(prog.units).forEach(function (name) {
    gl.activeTexture(gl.TEXTURE0 + prog.units[name]);
    gl.bindTexture(gl.TEXTURE_2D, inputs[name] || null);
  });
  gl.bindBufferBase(gl.UNIFORM_BUFFER, 0, ubo);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
};
glevo.De.count = 0;
glevo.De.id = function (t) { return t.glevoId || (t.glevoId = ++glevo.De.count); };

de.passList = function () {
  var self = this, P = this.programs, list = [];
  if (this.usesBest)
    this.levels.forEach(function (level, k) {
      list.push({name: P.reduce.name + ' ' + (k + 1) + '/' + self.levels.length, program: P.reduce,
                 output: function () { return level.texture; },
                 run: function () {
                   var src = k === 0 ? self.fit[self.cur] : self.levels[k - 1].texture;
                   self.draw(P.reduce, {t_input: src}, [level.texture], level.ubo);
                 }});
    });
  var best = this.levels[this.levels.length - 1].texture;
  list.push({name: 'de.trial', program: P.trial, output: function () { return self.fit[1 - self.cur]; },
             run: function () {
               self.uniforms(self.generation + 1);
               self.draw(P.trial, {t_population: self.pop[self.cur], t_fitness: self.fit[self.cur],
                                   t_bounds: self.bounds, t_best: self.usesBest ? best : null},
                         [self.fit[1 - self.cur], self.choice], self.ubo);
             }});
  list.push({name: 'de.select', program: P.select, output: function () { return self.pop[1 - self.cur]; },
             run: function () {
               var n = 1 - self.cur;
               self.draw(P.select, {t_population: self.pop[self.cur], t_fitness: self.fit[n],
                                    t_choice: self.choice, t_bounds: self.bounds,
                                    t_best: self.usesBest ? best : null}, [self.pop[n]], self.ubo);
               self.cur = n;
               self.generation++;
             }});
  return list;
};

de.read = function (tex) {
  var gl = this.gl, out = new Float32Array(tex.width * tex.height * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, this.readFbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  gl.readPixels(0, 0, tex.width, tex.height, gl.RGBA, gl.FLOAT, out);
  return out;
};

// n generations; after each, the population's best fitness (fmin / fmax order, as
// de_best_index) for the curve.
de.run = function (n) {
  for (var k = 0; k < n; ++k) {
    this.passes.forEach(function (pass) { pass.run(); });
    this.record();
  }
  return this.history;
};

de.record = function () {
  var f = this.read(this.fit[this.cur]), best = NaN, sum = 0;
  for (var i = 0; i < this.params.np; ++i) {
    var v = f[4 * i];
    sum += v;
    if (!(best === best) || (this.max ? v > best : v < best)) best = v;
  }
  this.history.push({generation: this.generation, best: best, mean: sum / this.params.np,
                     bestSoFar: best});
};

de.destroy = function () {
  var gl = this.gl;
  Object.keys(this.programs).forEach(function (k) { gl.deleteProgram(this.programs[k].program); }, this);
  this.pop.concat(this.fit, [this.choice, this.bounds]).forEach(function (t) { gl.deleteTexture(t); });
  this.levels.forEach(function (l) { gl.deleteTexture(l.texture); gl.deleteBuffer(l.ubo); });
  this.fbos.forEach(function (f) { gl.deleteFramebuffer(f); });
  gl.deleteFramebuffer(this.readFbo);
  gl.deleteBuffer(this.ubo);
};

// The best individual (de_gpu_best): its fitness, index and genes.
de.best = function () {
  var f = this.read(this.fit[this.cur]), bi = 0;
  for (var i = 1; i < this.params.np; ++i) {
    var a = f[4 * i], b = f[4 * bi];
    if (b !== b ? a === a : (this.max ? a > b : a < b)) bi = i;
  }
  var pop = this.read(this.pop[this.cur]), W = this.perRow * this.params.dim, x = [];
  var row = Math.floor(bi / this.perRow), col = (bi % this.perRow) * this.params.dim;
  for (var j = 0; j < this.params.dim; ++j) x.push(pop[4 * (row * W + col + j)]);
  return {fitness: f[4 * bi], index: bi, x: x};
};
