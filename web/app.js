// The page: controls, the three texture views (drawn by the desktop demo's own display pass,
// shaders/demo/panel.glsl), the pass stepper, the fitness curve and the user fitness editor.
// window.glevoApp is what tests/web/test_web.mjs drives. Query parameters set the controls
// (?problem=sphere&grid=64x64&seed=7&pc=0.8&pm=0.005&neighbourhood=0); ?nowebgl2=1 makes the
// support check fail, to show what a browser without WebGL2 sees (?nofloat=1: one without
// EXT_color_buffer_float).
'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var query = new URLSearchParams(location.search);
  var DEFAULT_USER = [
    '// Your fitness: problem_step sees gene j decoded to z, one gene at a time; problem_finish',
    '// returns f. This one minimises the distance to (1, 1, ..., 1).',
    'vec4 problem_init() { return vec4(0.0); }',
    'vec4 problem_step(vec4 acc, int j, float z)',
    '{',
    '    acc.x += abs(z - 1.0);',
    '    return acc;',
    '}',
    'float problem_finish(vec4 acc, int D) { return acc.x / float(D); }',
    ''].join('\n');
  var app = {engine: null, running: false, lastPass: null, user: null};
  window.glevoApp = app;
  var canvas = $('gl');
  var gl = query.get('nowebgl2') ? null :
    canvas.getContext('webgl2', {antialias: false, preserveDrawingBuffer: true});
  app.support = glevo.checkSupport(gl, query.has('nofloat'));
  app.renderer = gl ? rendererName(gl) : '';

  function rendererName(g) {
    var info = g.getExtension('WEBGL_debug_renderer_info');
    return g.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : g.RENDERER);
  }

  function fail(text) {
    var box = $('unsupported');
    box.textContent = text;
    box.hidden = false;
    $('app').hidden = true;
  }

  function params() {
    var name = $('problem').value, grid = $('grid').value.split('x').map(Number);
    var base = {width: grid[0], height: grid[1], bits: 24, pc: Number($('pc').value),
                pm: Number($('pm').value), neighbourhood: Number($('neighbourhood').value),
                seed: Number($('seed').value) >>> 0, mutation: $('mutation').value};
    if (name === 'user') {
      base.problem = {lower: Number($('user-lower').value), upper: Number($('user-upper').value),
                      max: $('user-max').checked};
      base.dim = Number($('user-dim').value);
      base.userText = $('user-text').value;
    } else {
      base.problem = glevo.PROBLEMS[name];
      base.dim = !base.problem.fixed && query.has('dim') ? Number(query.get('dim')) : base.problem.dim;
    }
    return base;
  }

  // A new engine from the controls; on a shader error the old one keeps running.
  app.reset = function () {
    var p = params(), engine;
    try {
      engine = new glevo.Cga(gl, p);
    } catch (e) {
      showErrors(e);
      return {ok: false, error: e.log || e.message};
    }
    showErrors(null);
    if (app.engine) app.engine.destroy();
    app.engine = engine;
    app.lastPass = null;
    listPasses();
    render();
    setStatus('WebGL2 on ' + app.renderer);
    return {ok: true};
  };

  function showErrors(e) {
    var box = $('user-errors'), marks = {};
    if (!e) {
      box.textContent = '';
      markGutter(marks);
      return;
    }
    var log = e.log || e.message;
    glevo.errorsIn(log, 'user.glsl').forEach(function (err) { marks[err.line] = err.text; });
    box.textContent = (e.pass ? e.pass + ' does not build:\n' : '') + log;
    markGutter(marks);
    setStatus('shader error: see below the editor');
  }

  function markGutter(marks) {
    var lines = $('user-text').value.split('\n').length, html = [];
    for (var i = 1; i <= lines; ++i)
      html.push(marks[i] ? '<span class="bad" title="' + marks[i].replace(/"/g, '&quot;') + '">' +
                i + '</span>' : String(i));
    $('gutter').innerHTML = html.join('\n');
  }

  // ---- the display: panel.glsl draws a texture into a rectangle of the canvas.
  var panel;
  function buildPanel() {
    panel = glevo.buildProgram(gl, {name: 'demo.panel', file: 'demo/panel.glsl', defines: '',
                                    samplers: [['t_view', 1]]});
    ['u_mode', 'u_gene_scale', 'u_range', 'u_rect'].forEach(function (n) {
      panel[n] = gl.getUniformLocation(panel.program, n);
    });
  }

  function drawPanel(tex, slot, mode, range) {
    var e = app.engine, size = 240, x = 10 + slot * 260, y = 10;
    gl.useProgram(panel.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    var scale = mode === 2 ? 1 / e.params.bits : 1 / (Math.pow(2, e.params.bits) - 1);
    gl.uniform1i(panel.u_mode, mode === 2 ? 0 : mode);
    gl.uniform3f(panel.u_gene_scale, scale, scale, scale);
    gl.uniform2f(panel.u_range, range[0], range[1]);
    gl.uniform4f(panel.u_rect, x, y, size, size);
    gl.viewport(x, y, size, size);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  function fitnessRange() {
    var e = app.engine, h = e.history[e.history.length - 1];
    if (app.lastPass && /^(cga\.fitness|reduce)/.test(app.lastPass.name)) {
      var f = e.read(e.fitness), lo = Infinity, hi = -Infinity;
      for (var i = 0; i < f.length; i += 4) {
        var s = e.sign * f[i];
        if (s < lo) lo = s;
        if (s > hi) hi = s;
      }
      return [e.sign * lo, e.sign * hi];
    }
    return h ? [h.worst, h.best] : [0, 1];
  }

  function render() {
    var e = app.engine;
    if (!e) return;
    var range = fitnessRange(); // reads back: before the canvas is bound
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(0.97, 0.97, 0.97, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    drawPanel(e.current[0], 0, 0, range);
    drawPanel(e.fitness, 1, 1, range);
    var pass = app.lastPass || e.passes[e.passes.length - 1];
    var mode = /^(cga\.fitness|reduce|cga\.keep_best)/.test(pass.name) ? 1 :
      pass.name === 'cga.crossover_points' ? 2 : 0;
    drawPanel(pass.output()[0], 2, mode, range);
    $('output-label').textContent = 'output of ' + pass.name;
    var h = e.history[e.history.length - 1];
    $('record').textContent = h ? 'generation ' + h.generation + ': best of generation ' +
      h.best.toPrecision(9) + ', mean ' + h.mean.toPrecision(9) + ', best so far ' +
      h.bestSoFar.toPrecision(9) : 'generation 0: step or run to start';
    glevo.drawChart($('chart'), e.history, e.sign > 0);
  }

  function listPasses() {
    var ol = $('pass-list');
    ol.innerHTML = '';
    app.engine.passes.forEach(function (p, i) {
      var li = document.createElement('li');
      li.textContent = p.name + '  (' + p.program.file + ')';
      li.dataset.index = i;
      ol.appendChild(li);
    });
    showPass(null);
  }

  function showPass(pass) {
    var e = app.engine, items = $('pass-list').children;
    for (var i = 0; i < items.length; ++i)
      items[i].className = pass && e.passes[i] === pass ? 'current' : '';
    if (!pass) {
      $('pass-name').textContent = 'next: ' + e.passes[e.nextPass].name;
      $('pass-note').textContent = '';
      $('pass-refs').textContent = '';
      $('pass-source').textContent = '';
      return;
    }
    $('pass-name').textContent = pass.name + ': shaders/' + pass.program.file +
      ' (generation ' + (e.nextPass === 0 ? e.generation : e.generation + 1) + ')';
    var note = glevo.noteFor(pass.name);
    $('pass-note').textContent = note;
    var refs = (note.match(/\[(\d+)\]/g) || []).map(function (r) { return Number(r.slice(1, -1)); })
      .filter(function (n, k, all) { return all.indexOf(n) === k; });
    $('pass-refs').textContent = refs.map(function (n) {
      return '[' + n + '] ' + glevo.REFERENCES[n];
    }).join('\n');
    var text = pass.program.file === 'user.glsl' ? '' : glevo.shaderSource(pass.program.file);
    $('pass-source').textContent = '// shaders/' + pass.program.file + ', composed with: ' +
      pass.program.files.slice(1).join(', ') + '\n' + text;
  }

  // ---- what the buttons and the tests call.
  app.stepPass = function () {
    var e = app.engine, pass = e.stepPass();
    app.lastPass = pass;
    showPass(pass);
    render();
    return {name: pass.name, file: pass.program.file, source: $('pass-source').textContent,
            note: $('pass-note').textContent, generation: e.generation};
  };

  // n generations at once (finishing a generation the stepper began); returns the history.
  app.run = function (n) {
    var e = app.engine;
    for (var i = 0; i < n; ++i) e.runGeneration();
    app.lastPass = null;
    render();
    return e.history;
  };

  app.profile = function (generations) {
    var e = new glevo.Cga(gl, app.engine.params);
    return e.profile(generations).then(function (result) {
      e.destroy();
      var table = $('profile-table');
      table.innerHTML = '<tr><th>pass</th><th>us per draw</th></tr>' + result.rows.map(function (r) {
        return '<tr><td>' + r.pass + '</td><td>' + r.us.toFixed(0) + '</td></tr>';
      }).join('') + '<tr><td colspan="2">' + result.source + '</td></tr>';
      table.hidden = false;
      return result;
    });
  };

  app.setUserFitness = function (text, dim, lower, upper) {
    $('user-text').value = text;
    if (dim) $('user-dim').value = dim;
    if (lower !== undefined) $('user-lower').value = lower;
    if (upper !== undefined) $('user-upper').value = upper;
    $('problem').value = 'user';
    var r = app.reset();
    r.errors = glevo.errorsIn(r.error || '', 'user.glsl');
    r.shown = $('user-errors').textContent;
    r.gutter = Array.prototype.map.call(document.querySelectorAll('#gutter .bad'),
                                        function (s) { return Number(s.textContent); });
    return r;
  };

  function setStatus(text) { $('status').textContent = text; }

  function loop() {
    if (!app.running) return;
    var t0 = performance.now(), n = Number($('speed').value);
    for (var i = 0; i < n; ++i) app.engine.runGeneration();
    app.lastPass = null;
    render();
    var dt = performance.now() - t0;
    setStatus('generation ' + app.engine.generation + ', ' + (1000 * n / dt).toFixed(0) +
              ' generations/s (' + n + ' a frame)');
    requestAnimationFrame(loop);
  }

  function wire() {
    Object.keys(glevo.PROBLEMS).forEach(function (name) {
      var o = document.createElement('option');
      o.textContent = name;
      $('problem').appendChild(o);
    });
    var o = document.createElement('option');
    o.textContent = o.value = 'user';
    $('problem').appendChild(o);
    ['problem', 'grid', 'pc', 'pm', 'neighbourhood', 'mutation', 'seed'].forEach(function (id) {
      if (query.has(id)) $(id).value = query.get(id);
      $(id).addEventListener('change', function () { app.reset(); });
    });
    $('user-text').value = DEFAULT_USER;
    $('user-text').addEventListener('input', function () { markGutter({}); });
    $('user-text').addEventListener('scroll', function () { $('gutter').scrollTop = $('user-text').scrollTop; });
    markGutter({});
    $('speed-value').textContent = $('speed').value + ' a frame';
    $('speed').addEventListener('input', function () {
      $('speed-value').textContent = $('speed').value + ' a frame';
    });
    $('reset').onclick = function () { app.running = false; $('run').textContent = 'Run'; app.reset(); };
    $('run').onclick = function () {
      app.running = !app.running;
      $('run').textContent = app.running ? 'Pause' : 'Run';
      if (app.running) requestAnimationFrame(loop);
    };
    $('step-pass').onclick = function () { app.stepPass(); };
    $('step-generation').onclick = function () { app.run(1); };
    $('profile').onclick = function () { app.profile(20); };
    $('user-compile').onclick = function () { $('problem').value = 'user'; app.reset(); };
  }

  app.ready = (function () {
    if (app.support) {
      fail(app.support);
      return Promise.resolve(false);
    }
    var names = ['common/fullscreen_vertex.glsl', 'demo/panel.glsl', 'cga/common.glsl',
      'cga/fitness.glsl', 'cga/keep_best.glsl', 'cga/select.glsl', 'cga/crossover_points.glsl',
      'cga/crossover.glsl', 'cga/mutate.glsl', 'rng/philox.glsl', 'rng/source.glsl',
      'bits/fbits.glsl', 'reduce/best.glsl', 'reduce/better.glsl', 'reduce/common.glsl']
      .concat(Object.keys(glevo.PROBLEMS).map(function (k) { return glevo.PROBLEMS[k].snippet; }));
    return glevo.loadShaders(names).then(function () {
      wire();
      buildPanel();
      return app.reset().ok;
    }).catch(function (e) {
      fail(e.message);
      return false;
    });
  })();
})();
