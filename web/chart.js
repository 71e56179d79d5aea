// The fitness curve: best of generation, mean and best so far against the generation, with
// labelled axes; a log scale when every value is positive (minimising towards 0 spans
// decades), a symmetric log scale (sign(v) log10(1 + |v|)) when values of both signs span
// decades (camel: a mean of 1e10 above a best of -1.03).
'use strict';
var glevo = window.glevo || (window.glevo = {});

glevo.drawChart = function (canvas, history, maximise) {
  var c = canvas.getContext('2d'), W = canvas.width, H = canvas.height;
  var left = 70, right = 150, top = 16, bottom = 44;
  c.fillStyle = '#fff';
  c.fillRect(0, 0, W, H);
  c.strokeStyle = '#333';
  c.strokeRect(left, top, W - left - right, H - top - bottom);
  c.fillStyle = '#222';
  c.font = '12px sans-serif';
  c.textAlign = 'center';
  c.fillText('generation', left + (W - left - right) / 2, H - 8);
  var series = [['best', '#d62728'], ['mean', '#1f77b4'], ['bestSoFar', '#2ca02c']];
  var values = [];
  history.forEach(function (h) {
    series.forEach(function (s) { if (isFinite(h[s[0]])) values.push(h[s[0]]); });
  });
  var log = values.length > 0 && values.every(function (v) { return v > 0; });
  var spread = Math.max.apply(null, values.map(Math.abs));
  var symlog = !log && spread > 1000;
  c.save();
  c.translate(14, top + (H - top - bottom) / 2);
  c.rotate(-Math.PI / 2);
  c.fillText(log ? 'fitness (log scale)' : symlog ? 'fitness (symmetric log scale)' : 'fitness', 0, 0);
  c.restore();
  if (!values.length) return;
  var tf = log ? Math.log10 : symlog ? function (v) { return Math.sign(v) * Math.log10(1 + Math.abs(v)); }
    : function (v) { return v; };
  var inverse = log ? function (t) { return Math.pow(10, t); }
    : symlog ? function (t) { return Math.sign(t) * (Math.pow(10, Math.abs(t)) - 1); }
    : function (t) { return t; };
  var lo = Math.min.apply(null, values.map(tf)), hi = Math.max.apply(null, values.map(tf));
  if (hi === lo) { hi += 1; lo -= 1; }
  var n = Math.max(history[history.length - 1].generation, 1);
  var x = function (g) { return left + (W - left - right) * g / n; };
  var y = function (v) { return top + (H - top - bottom) * (1 - (tf(v) - lo) / (hi - lo)); };
  c.textAlign = 'right';
  for (var k = 0; k <= 4; ++k) {
    var t = lo + (hi - lo) * k / 4, v = inverse(t);
    c.fillText(v.toPrecision(3), left - 4, y(v) + 4);
  }
  c.textAlign = 'center';
  for (k = 0; k <= 4; ++k) c.fillText(String(Math.round(n * k / 4)), x(n * k / 4), H - bottom + 16);
  series.forEach(function (s, i) {
    c.strokeStyle = s[1];
    c.beginPath();
    var started = false;
    history.forEach(function (h) {
      if (!isFinite(h[s[0]])) return;
      if (started) c.lineTo(x(h.generation), y(h[s[0]]));
      else c.moveTo(x(h.generation), y(h[s[0]]));
      started = true;
    });
    c.stroke();
    c.fillStyle = s[1];
    c.textAlign = 'left';
    var label = {best: 'best of generation', mean: 'mean', bestSoFar: 'best so far'}[s[0]];
    c.fillText(label, W - right + 10, top + 16 + 18 * i);
  });
  c.fillStyle = '#555';
  c.fillText(maximise ? '(maximised)' : '(minimised)', W - right + 10, top + 16 + 18 * 3);
};
