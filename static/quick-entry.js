// Fewer taps at the table (templates/scoring/table.html's entry form): the phone keeps who is
// entering for the rest of the session (the PIN is still typed for every hand, so confirmation is
// as strong as before), a riichi winner's fu starts at 30 (the most common), and the cursor goes
// to the winner's value as soon as the last seat button of the hand is pressed. tests/browser/test_taps.py counts the taps of the common hands of
// each rule family. Without this script the form is as the server sends it.
(function () {
  'use strict';
  var form = document.getElementById('entry');
  if (!form || !window.localStorage) return;
  var seat = form.querySelector('#entered_by_seat');
  var key = 'dmj-seat:' + window.location.pathname;
  if (seat && !seat.value) {
    var kept = window.localStorage.getItem(key);
    if (kept && Array.prototype.some.call(seat.options, function (o) { return o.value === kept; })) seat.value = kept;
  }
  form.addEventListener('submit', function () {
    if (seat && seat.value) window.localStorage.setItem(key, seat.value);
  });

  function kind() {
    var k = form.querySelector('input[name=kind]:checked');
    return k ? k.value : '';
  }
  function focusValue(winner) {
    var value = form.querySelector('#value_' + winner);
    if (value && !value.value) value.focus();
  }
  form.addEventListener('change', function (event) {
    var target = event.target;
    if (target.name === 'winners' && target.checked) {
      var fu = form.querySelector('#fu_' + target.value);
      if (fu && !fu.value && Array.prototype.some.call(fu.options, function (o) { return o.value === '30'; })) fu.value = '30';
      if (kind() === 'self_draw') focusValue(target.value);
    }
    if (target.name === 'discarder' && target.checked && kind() === 'discard') {
      var winner = form.querySelector('input[name=winners]:checked');
      if (winner) focusValue(winner.value);
    }
  });
})();
