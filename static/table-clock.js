// The table page's clock (templates/scoring/table.html, #table-clock): counts down the time the
// table plays to (its session's clock and any extra time the director gave it:
// tournament.clock.table_clock_state), polling it every 20 seconds, and when the time is up says
// so on the page, vibrates the phone and sounds a short tone where the browser allows. Without
// this script the page shows the time as it was when loaded.
(function () {
  'use strict';
  var clock = document.getElementById('table-clock');
  if (!clock) return;
  var timeEl = clock.querySelector('.clock-time');
  var note = clock.querySelector('.clock-note');
  var state = { remaining: parseInt(clock.dataset.remaining, 10), running: clock.dataset.running === '1' };
  var fetchedAt = Date.now();
  var signalled = state.remaining <= 0;

  function fmt(s) {
    var sign = s < 0 ? '-' : '';
    s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = h ? (m < 10 ? '0' + m : '' + m) : '' + m;
    return sign + (h ? h + ':' : '') + mm + ':' + (sec < 10 ? '0' + sec : sec);
  }

  function signal() {  // the end of the time: words for everyone, a buzz and a tone where allowed
    if (navigator.vibrate) { try { navigator.vibrate([300, 150, 300]); } catch (e) { /* not allowed */ } }
    if (window.dmjTone) window.dmjTone(660, 0.6);  // static/tone.js
  }

  function tick() {
    var left = state.remaining;
    if (state.running) left -= Math.floor((Date.now() - fetchedAt) / 1000);
    timeEl.textContent = fmt(left);
    clock.classList.toggle('overtime', left < 0 || (left === 0 && state.running));
    clock.classList.toggle('paused', !state.running);
    var up = left <= 0 && (state.running || left < 0);
    var words = up ? clock.dataset.up : (state.running ? '' : clock.dataset.paused);
    if (note.textContent !== words) note.textContent = words;
    if (up && !signalled) { signalled = true; clock.setAttribute('role', 'alert'); signal(); }
    if (!up) signalled = false;
  }

  function refresh() {
    if (!window.fetch) return;
    window.fetch(clock.dataset.url, { credentials: 'same-origin', cache: 'no-store', headers: { 'Accept': 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || !data.set) return;
        state = { remaining: data.remaining, running: data.running };
        fetchedAt = Date.now();
        tick();
      }, function () { /* offline: the count goes on from what was known */ });
  }

  tick();
  window.setInterval(tick, 1000);
  window.setInterval(refresh, 20000);
})();
