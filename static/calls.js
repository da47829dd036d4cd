// The director's calls page (templates/scoring/calls.html): polls the open calls every 5 seconds
// (scoring.table_views.director_calls_json) and redraws the list; a new call shows first in the
// page's title ("(2) ...") and a short tone where the browser allows sound. Without this script
// the page lists the calls as they were when it was loaded.
(function () {
  'use strict';
  var section = document.getElementById('calls');
  if (!section || !window.fetch) return;
  var text = section.dataset;
  var title = document.title;
  var known = {};
  document.querySelectorAll('[data-call]').forEach(function (li) { known[li.dataset.call] = true; });
  var csrf = text.csrf;

  function tone() { if (window.dmjTone) window.dmjTone(880, 0.25); }  // static/tone.js

  function draw(calls) {
    section.textContent = '';
    if (!calls.length) {
      var none = document.createElement('p');
      none.id = 'no-calls';
      none.textContent = text.none;
      section.appendChild(none);
    } else {
      var list = document.createElement('ol');
      list.className = 'results';
      list.id = 'call-list';
      calls.forEach(function (c) {
        var li = document.createElement('li');
        li.className = 'card call' + (known[c.id] ? '' : ' new-call');
        li.dataset.call = c.id;
        var strong = document.createElement('strong');
        strong.textContent = text.table.replace('{n}', c.table);
        li.appendChild(strong);
        li.appendChild(document.createTextNode((c.room ? ' · ' + c.room : '') + ' · ' + c.reason_label + (c.note ? ': ' + c.note : '')));
        var when = document.createElement('span');
        when.className = 'muted';
        when.textContent = ' · ' + text.minutes.replace('{m}', c.waiting_minutes) +
          (c.repeats ? ' · ' + text.repeats.replace('{n}', c.repeats) : '');
        li.appendChild(when);
        var form = document.createElement('form');
        form.method = 'post';
        form.className = 'inline';
        form.action = text.answerUrl.replace(/\/0\/answer\/$/, '/' + c.id + '/answer/');
        var token = document.createElement('input');
        token.type = 'hidden';
        token.name = 'csrfmiddlewaretoken';
        token.value = csrf;
        var button = document.createElement('button');
        button.type = 'submit';
        button.textContent = text.answer;
        form.appendChild(token);
        form.appendChild(button);
        li.appendChild(form);
        list.appendChild(li);
      });
      section.appendChild(list);
    }
    var fresh = calls.some(function (c) { return !known[c.id]; });
    known = {};
    calls.forEach(function (c) { known[c.id] = true; });
    document.title = (calls.length ? '(' + calls.length + ') ' : '') + title;
    if (fresh) tone();
  }

  function poll() {
    window.fetch(text.url, { credentials: 'same-origin', headers: { 'Accept': 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { if (body) draw(body.calls); }, function () {})
      .then(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 5000);
})();
