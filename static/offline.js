// The table page's queue (templates/scoring/table.html, #queue): a hand entered, or a result
// confirmed, while the phone has no connection waits here ("2 hands waiting to be sent") and is
// sent, in order, when the connection returns; the queue is kept in the browser's local storage,
// so it survives a reload or a closed browser, and the service worker (/sw.js) keeps the page
// itself for a reload without a connection. Every write carries its own request key
// (scoring.actions.request_keys), so sending one again never stores it twice; a refusal (a PIN
// refused, the result changed meanwhile) is shown next to its hand and not sent again. (No answer
// depends on the wall the table played: docs/security.md, "The wall check".)
//
// With a connection the forms are posted as usual (the server's page answers, with its errors at
// the fields); the hand is remembered until a page of this table lists its key as answered, so a
// sending that the network lost (the browser's own error page, then Back) goes to the queue
// instead of being lost. Without this script the forms work as before.
//
// PINs: a queued write holds the PIN typed with it (the entering or confirming player's) only
// until it is sent or refused; then the PIN is taken out of the stored copy (scrub), so the
// phone's local storage never keeps a PIN longer than the write needs it (docs/security.md).
(function () {
  'use strict';
  var queue = document.getElementById('queue');
  if (!queue || !window.localStorage || !window.fetch || !window.FormData || !window.JSON || !window.crypto) return;
  var list = document.getElementById('queue-items');
  var count = document.getElementById('queue-count');
  var form = document.getElementById('entry');
  var storeKey = 'dmj-queue:' + window.location.pathname;
  var text = queue.dataset;
  var flushing = false;
  var retry = null;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(storeKey)) || []; } catch (e) { return []; }
  }
  var PIN_FIELDS = ['entry_pin', 'pin'];
  function scrub(item) {  // a write that is sent or refused needs its PIN no more
    if (item.state === 'sent' || item.state === 'refused') {
      item.fields = item.fields.filter(function (f) { return PIN_FIELDS.indexOf(f[0]) < 0; });
    }
    return item;
  }
  function save(items) { window.localStorage.setItem(storeKey, JSON.stringify(items.map(scrub))); }
  function newKey() {  // crypto.getRandomValues works on a plain-HTTP venue address too (randomUUID does not)
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return 'q-' + Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }
  function fields(formElement, key) {
    var data = new FormData(formElement);
    if (key) data.set('request_key', key);
    var out = [];
    data.forEach(function (value, name) { if (typeof value === 'string') out.push([name, value]); });
    return out;
  }
  function field(item, name) {
    for (var i = 0; i < item.fields.length; i++) if (item.fields[i][0] === name) return item.fields[i][1];
    return '';
  }
  function csrf() {
    var input = document.querySelector('input[name=csrfmiddlewaretoken]');
    return input ? input.value : '';
  }

  function summary(formElement) {  // what the hand was, in the page's own words
    var set = formElement.querySelector('#set_no');
    var parts = [set && set.selectedIndex >= 0 ? text.set.replace('{set}', set.options[set.selectedIndex].text) : ''];
    var kind = formElement.querySelector('input[name=kind]:checked');
    var mode = formElement.querySelector('input[name=mode]:checked');
    if (kind && !(mode && mode.value === 'changes')) {
      var kindLabel = formElement.querySelector('label[for="' + kind.id + '"]');
      parts.push(kindLabel ? kindLabel.textContent.trim() : kind.value);
      if (kind.value !== 'draw') formElement.querySelectorAll('input[name=winners]:checked').forEach(function (w) {
        var value = formElement.querySelector('input[name="value_' + w.value + '"]');
        parts.push(label(formElement, w.value) + (value && value.value ? ' ' + value.value : ''));
      });
      parts.push(priced(formElement));
    } else {
      formElement.querySelectorAll('input[name^="seat_"]').forEach(function (box) {
        if (box.value) parts.push(label(formElement, box.name.slice(5)) + ' ' + box.value);
      });
    }
    return parts.filter(Boolean).join(' · ');
  }

  function label(formElement, seat) {  // E / 東 / 东, as the page names seats
    try { return JSON.parse(formElement.dataset.seatLabels || '{}')[seat] || seat; } catch (e) { return seat; }
  }

  // The score changes the outcome gives, computed on the phone by the payment rules' browser copy
  // (static/payments.js), so whoever confirms a hand queued offline sees what they approve
  // ("E +1500, S +1500, W -1500, N -1500"); the server computes them again when the hand is sent.
  // '' when they cannot be computed here (the server then says what is wrong).
  function priced(formElement) {
    if (!window.dmjPayments) return '';
    var seats = Object.keys(JSON.parse(formElement.dataset.seatLabels || '{}'));
    var checked = function (name) {
      return Array.prototype.map.call(formElement.querySelectorAll('input[name="' + name + '"]:checked'), function (i) { return i.value; });
    };
    var number = function (name) { var el = formElement.querySelector('[name="' + name + '"]'); return el && el.value.trim() ? parseInt(el.value, 10) : 0; };
    var kind = (formElement.querySelector('input[name=kind]:checked') || {}).value;
    var winners = kind === 'draw' ? [] : checked('winners');
    var set = formElement.querySelector('#set_no');
    var carried = [0, 0];
    try { carried = JSON.parse(formElement.dataset.carried || '{}')[set ? set.value : ''] || carried; } catch (e) { /* none fixed */ }
    var honba = formElement.querySelector('#honba');
    var outcome = {
      kind: kind, winners: winners, discarder: kind === 'discard' ? (checked('discarder')[0] || null) : null,
      fans: winners.map(function (w) { return number('value_' + w); }),
      fu: winners.map(function (w) { return number('fu_' + w); }),
      yakuman: winners.map(function (w) { return number('yakuman_' + w); }),
      honba: honba ? number('honba') : carried[0], riichi: checked('riichi'), tenpai: checked('tenpai'),
      shielded: checked('shielded'), open_riichi: checked('open_riichi').length > 0,
      liable: (formElement.querySelector('select[name=liable]') || {}).value || null,
    };
    var settled = null;
    try { settled = window.dmjPayments.settle(formElement.dataset.rule, seats, outcome, carried[1]); } catch (e) { settled = null; }
    if (!settled) return '';
    return seats.map(function (seat) {
      var v = settled.changes[seat];
      return label(formElement, seat) + '\u00a0' + (v > 0 ? '+' + v : '' + v);  // a seat and its change on one line
    }).join(', ');
  }

  function render() {
    var items = load();
    var hands = items.filter(function (i) { return i.kind === 'enter' && i.state === 'waiting'; }).length;
    var waiting = items.filter(function (i) { return i.state === 'waiting'; }).length;
    queue.hidden = !items.length;
    count.textContent = hands ? (hands === 1 ? text.waitingOne : text.waitingMany.replace('{n}', hands))
      : (waiting ? text.confirmWaiting.replace('{n}', waiting) : '');
    list.textContent = '';
    items.forEach(function (item) {
      var li = document.createElement('li');
      li.className = 'queued queued-' + item.state;
      li.dataset.key = item.key;
      var what = document.createElement('span');
      what.textContent = item.summary + ' — ' + (text[item.state] || item.state);
      li.appendChild(what);
      if (item.message) {
        var why = document.createElement('p');
        why.className = item.state === 'refused' ? 'errorlist' : 'muted';
        why.setAttribute('role', item.state === 'refused' ? 'alert' : 'status');
        why.textContent = item.message;
        li.appendChild(why);
      }
      var confirmed = items.some(function (c) { return c.kind === 'confirm' && c.after === item.key && c.state !== 'refused'; });
      if (item.kind === 'enter' && item.state === 'waiting' && !confirmed) {  // confirm it now; sent after the hand
        var row = document.createElement('span');
        row.className = 'pin-row';
        var pin = document.createElement('input');
        pin.type = 'password';
        pin.inputMode = 'numeric';
        pin.maxLength = 4;
        pin.autocomplete = 'off';
        pin.className = 'queued-pin';
        pin.setAttribute('aria-label', text.pinLabel);
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'queued-confirm';
        button.textContent = text.confirm;
        button.addEventListener('click', function () {
          if (!pin.value.trim()) { pin.focus(); return; }
          add({ kind: 'confirm', after: item.key, key: newKey(), url: '', summary: text.confirmOf.replace('{hand}', item.summary),
                fields: [['csrfmiddlewaretoken', csrf()], ['pin', pin.value.trim()], ['revision', '1']] });
        });
        row.appendChild(pin);
        row.appendChild(button);
        li.appendChild(row);
      }
      if (item.state === 'refused') {
        var remove = document.createElement('button');
        remove.type = 'button';
        remove.className = 'secondary';
        remove.textContent = text.remove;
        remove.addEventListener('click', function () {
          save(load().filter(function (i) { return i.key !== item.key && i.after !== item.key; }));
          render();
        });
        li.appendChild(remove);
      }
      list.appendChild(li);
    });
    if (form) {  // a set whose hand waits is not offered again
      var queued = items.filter(function (i) { return i.kind === 'enter' && i.state !== 'refused'; }).map(function (i) { return field(i, 'set_no'); });
      var select = form.querySelector('#set_no');
      form.querySelectorAll('#set_no option').forEach(function (option) {
        if (queued.indexOf(option.value) >= 0) option.disabled = true;
      });
      if (select && select.selectedIndex >= 0 && select.options[select.selectedIndex].disabled) {
        var free = Array.prototype.filter.call(select.options, function (o) { return !o.disabled; })[0];
        if (free) select.value = free.value;
      }
    }
  }

  function add(item) {
    item.state = 'waiting';
    item.fields = item.fields.filter(function (f) { return f[0] !== 'request_key'; }).concat([['request_key', item.key]]);
    var items = load();
    items.push(item);
    save(items);
    render();
    flush();
  }

  function later() {
    if (!retry) retry = window.setTimeout(function () { retry = null; flush(); }, 5000);
  }

  function send(item) {
    var body = new FormData();
    item.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return window.fetch(item.url, { method: 'POST', body: body, credentials: 'same-origin',
                                   headers: { 'Accept': 'application/json', 'X-CSRFToken': field(item, 'csrfmiddlewaretoken') } });
  }

  function flush() {
    if (flushing) return;
    if (!navigator.onLine) { later(); return; }  // the browser knows there is no connection: nothing to try
    flushing = true;
    var sentAny = false;
    function next() {
      var items = load();
      var item = items.filter(function (i) { return i.state === 'waiting'; })[0];
      if (!item) return Promise.resolve(false);
      if (item.kind === 'confirm' && item.after) {
        var entry = items.filter(function (i) { return i.key === item.after; })[0];
        if (!entry || entry.state === 'refused') {
          item.state = 'refused';
          item.message = text.handRefused;
          save(items);
          render();
          return Promise.resolve(true);
        }
        if (entry.state !== 'sent') return Promise.resolve(false);  // in order: its hand first
        item.url = text.confirmUrl.replace(/\/0\/$/, '/' + entry.result + '/');
      }
      return send(item).then(function (response) {
        if (response.status >= 500) { later(); return false; }  // nothing stored, or not known: sent again, safely
        return response.json().catch(function () { return null; }).then(function (answer) {
          var now = load();
          var stored = now.filter(function (i) { return i.key === item.key; })[0];
          if (!stored) return true;
          if (response.ok && answer && answer.stored) {
            stored.state = 'sent';
            stored.result = answer.result;
            stored.message = '';
            sentAny = true;
          } else {
            stored.state = 'refused';
            stored.message = answer && answer.errors ? answer.errors.join(' ') : (response.status === 403 ? text.loggedOut : 'HTTP ' + response.status);
          }
          save(now);
          render();
          return true;
        });
      }, function () { later(); return false; });  // no connection: it waits
    }
    function loop() {
      return next().then(function (more) { if (more) return loop(); });
    }
    loop().then(function () {
      flushing = false;
      var items = load();
      if (sentAny && items.length && items.every(function (i) { return i.state === 'sent'; })) {
        save([]);
        window.location.replace(window.location.pathname);  // the page as stored now
      }
    }, function () { flushing = false; later(); });
  }

  // What the server answered since the last page: a hand posted as usual is dropped once a page
  // of this table lists its key (stored, or refused at the form); one that is not listed was lost
  // with the connection, and is queued to be sent again.
  function reconcile() {
    var answered = (queue.dataset.answered || '').split(' ');
    var items = load().filter(function (i) {
      return !(i.state === 'posted' && answered.indexOf(i.key) >= 0) && i.state !== 'sent';
    });
    items.forEach(function (i) { if (i.state === 'posted') i.state = 'waiting'; });
    save(items);
  }

  function intercept(formElement, kind, url) {
    formElement.addEventListener('submit', function (event) {
      if (event.submitter && event.submitter.name) return;  // the director's other buttons (unlock): posted as usual
      var waiting = load().some(function (i) { return i.state === 'waiting'; });
      var reason = formElement.querySelector('input[name=reason]:checked');
      var summaryText = kind === 'enter' ? summary(formElement)
        : (kind === 'call' ? formElement.dataset.hand + (reason ? ': ' + reason.parentNode.textContent.trim() : '')
          : text.confirmOf.replace('{hand}', formElement.dataset.hand || ''));
      if (navigator.onLine && !waiting && kind === 'call') return;  // posted as usual; its answer is the page
      if (navigator.onLine && !waiting) {  // posted as usual; remembered until a page lists its key
        var key = field({ fields: fields(formElement) }, 'request_key') || newKey();
        var items = load();
        items.push({ kind: kind, key: key, url: url, summary: summaryText, fields: fields(formElement, key),
                     state: 'posted' });
        save(items);
        return;
      }
      event.preventDefault();
      add({ kind: kind, key: newKey(), url: url, summary: summaryText, fields: fields(formElement) });
      if (kind === 'enter') {
        formElement.querySelectorAll('input[type=password], input[name^="value_"], input[name^="seat_"], input[name^="fu_"]').forEach(function (i) { i.value = ''; });
        formElement.querySelectorAll('input[name=winners], input[name=discarder], input[name=riichi], input[name=tenpai], input[name=winning_tile]').forEach(function (i) { i.checked = false; });
        var set = formElement.querySelector('#set_no');
        if (set) {
          var free = Array.prototype.filter.call(set.options, function (o) { return !o.disabled; })[0];
          if (free) set.value = free.value;
        }
      } else {
        formElement.hidden = true;
      }
    });
  }

  reconcile();
  if (form) intercept(form, 'enter', form.getAttribute('action') || window.location.pathname);
  document.querySelectorAll('form.confirm').forEach(function (confirmForm) {
    intercept(confirmForm, 'confirm', confirmForm.getAttribute('action'));
  });
  document.querySelectorAll('form.call').forEach(function (callForm) {  // a call waits in the queue like a hand
    intercept(callForm, 'call', callForm.getAttribute('action'));
  });
  render();
  window.addEventListener('online', flush);
  window.addEventListener('pageshow', function (event) { if (event.persisted) { reconcile(); render(); } });
  window.setTimeout(flush, 300);  // once the page has settled (a reload without a connection included)

  // The service worker keeps this page and its files for a reload without a connection; it needs
  // a secure page (HTTPS, or the laptop itself), and the queue works without it.
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(text.sw, { scope: '/' }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      if (!window.caches) return null;
      var files = Array.prototype.map.call(document.querySelectorAll('script[src], link[rel=stylesheet]'), function (el) {
        return el.src || el.href;
      });
      return Promise.all([
        window.caches.open('dmj-table-pages').then(function (cache) { return cache.add(window.location.pathname); }),
        window.caches.open('dmj-static').then(function (cache) {
          var scanBox = document.getElementById('scan-box');
          return cache.addAll(scanBox ? files.concat([scanBox.dataset.wasm]) : files);
        })
      ]);
    }).then(function () { queue.dataset.ready = '1'; }, function () { queue.dataset.ready = 'no'; });
  }
})();
