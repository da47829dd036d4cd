// Result entry (templates/scoring/_hand_fields.html): shows the inputs the chosen mode and kind
// use, a value row per ticked winner, the ± buttons of the score boxes, and on the table page the
// results waiting for confirmation, refreshed without reloading. Without this script every input
// shows and the server reads only what the kind uses (scoring.forms.HandForm).
(function () {
  'use strict';

  function checked(form, name) {
    return Array.prototype.filter.call(form.querySelectorAll('input[name="' + name + '"]'), function (i) { return i.checked; })
      .map(function (i) { return i.value; });
  }

  function setUp(form) {
    var modes = form.querySelectorAll('input[type=radio][name=mode]');
    var outcomeFields = form.querySelector('#outcome-fields');
    var changeFields = form.querySelector('#change-fields');

    function sync() {
      if (modes.length && outcomeFields && changeFields) {  // a typed rule set has no modes: its boxes always show
        var byOutcome = checked(form, 'mode')[0] !== 'changes';
        outcomeFields.hidden = !byOutcome;
        changeFields.hidden = byOutcome;
      }
      if (!outcomeFields) return;
      var kind = checked(form, 'kind')[0] || '';
      outcomeFields.querySelectorAll('[data-kinds]').forEach(function (el) {
        el.hidden = el.dataset.kinds.split(' ').indexOf(kind) < 0;
      });
      var winners = checked(form, 'winners');
      if (kind !== 'discard' && winners.length > 1) {  // one winner on a self-draw: keep the first ticked
        form.querySelectorAll('input[name=winners]').forEach(function (input) {
          if (input.checked && input.value !== winners[0]) input.checked = false;
        });
        winners = winners.slice(0, 1);
      }
      form.querySelectorAll('.value-row').forEach(function (row) {
        row.hidden = winners.indexOf(row.dataset.seat) < 0;
      });
      // A winner never discards its own winning tile: its discarder button is off.
      form.querySelectorAll('input[name=discarder]').forEach(function (input) {
        var off = kind === 'discard' && winners.indexOf(input.value) >= 0;
        if (off && input.checked) input.checked = false;
        input.disabled = off;
        input.closest('label').classList.toggle('off', off);
      });
    }

    // Honba and sticks fixed per set (scoring.forms.HandForm.fixed_by_set): the chosen set's line alone.
    var fixed = form.querySelector('#fixed-counters[data-by-set]');
    function showFixed() {
      var set = form.querySelector('#set_no');
      if (!fixed || !set) return;
      var lines = JSON.parse(fixed.dataset.bySet);
      if (lines[set.value]) fixed.textContent = lines[set.value];
    }
    showFixed();

    form.addEventListener('change', function (event) {
      var name = event.target.name;
      if (name === 'set_no') showFixed();
      if (name === 'winners' && event.target.checked && event.target.type === 'checkbox' && checked(form, 'kind')[0] !== 'discard') {
        form.querySelectorAll('input[name=winners]').forEach(function (input) {  // self-draw: the newly ticked seat wins
          if (input !== event.target) input.checked = false;
        });
      }
      if (['mode', 'kind', 'winners', 'discarder'].indexOf(name) >= 0) sync();
      if (name === 'winners' && event.target.checked) {
        var value = form.querySelector('#value_' + event.target.value);
        if (value && !value.value && !('ontouchstart' in window)) value.focus();
      }
    });

    // The winning tile: one tap picks it, a second tap on it clears it (the hidden "none" choice).
    form.querySelectorAll('input[name=winning_tile]').forEach(function (input) {
      var was = false;
      input.addEventListener('pointerdown', function () { was = input.checked; });
      input.closest('label') && input.closest('label').addEventListener('pointerdown', function () { was = input.checked; });
      input.addEventListener('click', function () {
        var none = form.querySelector('input[name=winning_tile][value=""]');
        if (was && input.value && none) none.checked = true;
        was = false;
      });
    });

    form.querySelectorAll('button.sign').forEach(function (button) {
      button.addEventListener('click', function () {
        var input = document.getElementById(button.dataset.for);
        var text = input.value.trim();
        if (/^[-\u2212\uff0d]/.test(text)) text = text.slice(1);
        else if (/^[+\uff0b]/.test(text)) text = '-' + text.slice(1);
        else text = '-' + text;
        input.value = text;
        input.dispatchEvent(new Event('input', {bubbles: true}));
      });
    });
    sync();
  }

  document.querySelectorAll('form#entry, form#correction').forEach(setUp);

  // A second device at the table sees results entered elsewhere without reloading.
  var pending = document.getElementById('pending');
  if (!pending) return;
  function busy() {
    if (pending.contains(document.activeElement)) return true;
    return Array.prototype.some.call(pending.querySelectorAll('input[name=pin]'), function (i) { return i.value; });
  }
  setInterval(function () {
    if (busy()) return;
    fetch(location.pathname, {credentials: 'same-origin'}).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (!html || busy()) return;
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('pending');
      if (fresh && fresh.dataset.state !== pending.dataset.state) {
        pending.innerHTML = fresh.innerHTML;
        pending.dataset.state = fresh.dataset.state;
      }
    }).catch(function () {});
  }, 4000);
})();
