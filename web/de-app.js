// The DE page (de.html): controls, the population and fitness textures, the stepper and the
// curve. window.glevoDe is what tests/web/test_web.mjs drives; query parameters set the
// controls (?problem=sphere&dim=10&np=256&F=0.5&CR=0.3&strategy=1&seed=3).
'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var query = new URLSearchParams(location.search);
  var canvas = $('gl');
  var gl = canvas.getContext('webgl2', {antialias: false, preserveDrawingBuffer: true});
  var app = {engine: null, lastPass: null, nextPass: 0};
  window.glevoDe = app;
  app.support = glevo.checkSupport(gl, query.has('nofloat'));
  var panel;

  function params() {
    return {problem: $('problem').value, dim: Number($('dim').value), np: Number($('np').value),
            F: Number($('F').value), CR: Number($('CR').value), strategy: Number($('strategy').value),
            seed: Number($('seed').value) >>> 0};
  }

  app.reset = function () {
    var p = params();
    if (glevo.PROBLEMS[p.problem].fixed) p.dim = glevo.PROBLEMS[p.problem].dim;
    var e = new glevo.De(gl, p);
    if (app.engine) app.engine.destroy();
    app.engine = e;
    app.lastPass = null;
    app.nextPass = 0;
    var ol = $('pass-list');
    ol.innerHTML = '';
    e.passes.forEach(function (pass) {
      var li = document.createElement('li');
      li.textContent = pass.name + '  (' + pass.program.file + ')';
      ol.appendChild(li);
    });
    render();
  };

  function drawPanel(tex, slot, range) {
    var x = 10 + slot * 260;
    gl.useProgram(panel.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.uniform1i(panel.u_mode, 1);
    gl.uniform3f(panel.u_gene_scale, 1, 1, 1);
    gl.uniform2f(panel.u_range, range[0], range[1]);
    gl.uniform4f(panel.u_rect, x, 10, 240, 240);
    gl.viewport(x, 10, 240, 240);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  function render() {
    var e = app.engine, prob = glevo.PROBLEMS[e.params.problem];
    var f = e.read(e.fit[e.cur]), lo = Infinity, hi = -Infinity;
    for (var i = 0; i < e.params.np; ++i) { lo = Math.min(lo, f[4 * i]); hi = Math.max(hi, f[4 * i]); }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(0.97, 0.97, 0.97, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    drawPanel(e.pop[e.cur], 0, [prob.upper, 0]);
    drawPanel(e.fit[e.cur], 1, prob.max ? [lo, hi] : [hi, lo]);
    var pass = app.lastPass;
    if (pass) {
      drawPanel(pass.output(), 2, pass.name === 'de.select' ? [prob.upper, 0] : prob.max ? [lo, hi] : [hi, lo]);
      $('output-label').textContent = 'output of ' + pass.name;
    }
    var h = e.history[e.history.length - 1];
    $('record').textContent = 'generation ' + e.generation + (h ? ': best ' + h.best.toPrecision(9) +
      ', mean ' + h.mean.toPrecision(9) : '') + ' (population ' + e.params.np + ' x ' + e.params.dim +
      ' genes in a ' + e.perRow * e.params.dim + ' x ' + e.rows + ' R32F texture)';
    glevo.drawChart($('chart'), e.history, prob.max);
  }

  app.stepPass = function () {
    var e = app.engine, pass = e.passes[app.nextPass];
    pass.run();
    app.nextPass = (app.nextPass + 1) % e.passes.length;
    if (app.nextPass === 0) e.record();
    app.lastPass = pass;
    var items = $('pass-list').children;
    for (var i = 0; i < items.length; ++i) items[i].className = e.passes[i] === pass ? 'current' : '';
    $('pass-name').textContent = pass.name + ': shaders/' + pass.program.file;
    var note = glevo.noteFor(pass.name);
    $('pass-note').textContent = note;
    $('pass-refs').textContent = (note.match(/\[(\d+)\]/g) || []).filter(function (r, k, all) {
      return all.indexOf(r) === k;
    }).map(function (r) { return r + ' ' + glevo.REFERENCES[r.slice(1, -1)]; }).join('\n');
    $('pass-source').textContent = '// shaders/' + pass.program.file + ', composed with: ' +
      pass.program.files.slice(1).join(', ') + '\n' + glevo.shaderSource(pass.program.file);
    render();
    return {name: pass.name, note: note, source: $('pass-source').textContent};
  };

  // n generations from a generation boundary; returns the history.
  app.run = function (n) {
    while (app.nextPass !== 0) app.stepPass();
    var h = app.engine.run(n);
    app.lastPass = null;
    render();
    return h;
  };

  app.ready = (function () {
    if (!gl || app.support) {
      $('unsupported').textContent = app.support;
      $('unsupported').hidden = false;
      $('app').hidden = true;
      return Promise.resolve(false);
    }
    var names = ['common/fullscreen_vertex.glsl', 'demo/panel.glsl', 'de/common.glsl',
      'de/stream.glsl', 'de/fold.glsl', 'de/evaluate.glsl', 'de/trial.glsl', 'de/select.glsl',
      'rng/philox.glsl', 'reduce/best.glsl', 'reduce/better.glsl', 'reduce/common.glsl']
      .concat(glevo.DE_PROBLEMS.map(function (k) { return glevo.PROBLEMS[k].snippet; }));
    return glevo.loadShaders(names).then(function () {
      glevo.DE_PROBLEMS.forEach(function (name) {
        var o = document.createElement('option');
        o.textContent = name;
        $('problem').appendChild(o);
      });
      glevo.DE_STRATEGIES.forEach(function (name, k) {
        var o = document.createElement('option');
        o.textContent = name;
        o.value = k;
        $('strategy').appendChild(o);
      });
      ['problem', 'dim', 'np', 'F', 'CR', 'strategy', 'seed'].forEach(function (id) {
        if (query.has(id)) $(id).value = query.get(id);
        $(id).addEventListener('change', function () { app.reset(); });
      });
      panel = glevo.buildProgram(gl, {name: 'demo.panel', file: 'demo/panel.glsl', defines: '',
                                      samplers: [['t_view', 1]]});
      ['u_mode', 'u_gene_scale', 'u_range', 'u_rect'].forEach(function (n) {
        panel[n] = gl.getUniformLocation(panel.program, n);
      });
      $('reset').onclick = function () { app.reset(); };
      $('step-pass').onclick = function () { app.stepPass(); };
      $('run').onclick = function () { app.run(100); };
      app.reset();
      $('status').textContent = 'WebGL2 on ' + gl.getParameter(gl.RENDERER);
      return true;
    }).catch(function (e) {
      $('unsupported').textContent = e.message;
      $('unsupported').hidden = false;
      return false;
    });
  })();
})();
