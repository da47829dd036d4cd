// Score changes of a hand's outcome, in the browser: the payment rules of scoring/payments
// (registry.py, riichi.py, mcr.py, three_player.py, shield_tile.py, yangzhou.py) for a phone that
// has no connection, so the player who confirms a hand queued offline sees the changes they
// approve (static/offline.js). The server stays the judge: it checks the outcome and computes the
// changes again when the hand is sent, and this copy only shows them. It takes an outcome the
// server would accept and computes nothing else (an outcome it cannot price gives null).
// tests/test_payments_js.py runs it under node against the Python rules on every rule's outcomes
// drawn by hypothesis: the two must agree to the point.
(function (root) {
  'use strict';

  function roundUp(points, unit) { return Math.ceil(points / unit) * unit; }
  function zero(seats) { var c = {}; seats.forEach(function (s) { c[s] = 0; }); return c; }
  function turnOrder(seats, start) {  // the seats after start, start last: the order a discard is claimed
    var i = seats.indexOf(start);
    return seats.slice(i + 1).concat(seats.slice(0, i + 1));
  }
  function noten(seats, tenpai, total) {
    var c = zero(seats);
    if (!tenpai.length || tenpai.length === seats.length) return c;
    var gain = Math.floor(total / tenpai.length), loss = Math.floor(total / (seats.length - tenpai.length));
    seats.forEach(function (s) { c[s] = tenpai.indexOf(s) >= 0 ? gain : -loss; });
    return c;
  }
  function pay(c, payer, to, amount) { c[payer] -= amount; c[to] += amount; }
  function n(list, i) { return (list && list[i]) || 0; }

  // riichi family (riichi.py)
  function riichiBase(han, fu, yakuman) {
    if (yakuman) return 8000 * yakuman;
    if (han >= 13) return 8000;
    if (han >= 11) return 6000;
    if (han >= 8) return 4000;
    if (han >= 6) return 3000;
    if (han >= 5) return 2000;
    return Math.min(2000, fu * Math.pow(2, han + 2));
  }
  function sticks(c, o, stick, to) {
    var riichi = o.riichi || [];
    riichi.forEach(function (s) { c[s] -= stick; });
    if (to === null) return stick * riichi.length;
    c[to] += stick * riichi.length;
    return 0;
  }
  function riichi(seats, o) {
    if (o.kind === 'draw') { var d = noten(seats, o.tenpai || [], 3000); return { changes: d, deposit: sticks(d, o, 1000, null) }; }
    var c = zero(seats), dealer = seats[0], honba = o.honba || 0, first;
    if (o.kind === 'self_draw') {
      var winner = o.winners[0], base = riichiBase(n(o.fans, 0), n(o.fu, 0), n(o.yakuman, 0));
      seats.forEach(function (payer) {
        if (payer === winner) return;
        var share = (payer === dealer || winner === dealer) ? 2 * base : base;
        pay(c, payer, winner, roundUp(share, 100) + 100 * honba);
      });
      first = winner;
    } else {
      o.winners.forEach(function (w, i) {
        pay(c, o.discarder, w, roundUp((w === dealer ? 6 : 4) * riichiBase(n(o.fans, i), n(o.fu, i), n(o.yakuman, i)), 100));
      });
      first = turnOrder(seats, o.discarder).filter(function (s) { return o.winners.indexOf(s) >= 0; })[0];
      pay(c, o.discarder, first, 300 * honba);
    }
    sticks(c, o, 1000, first);
    return { changes: c, deposit: 0 };
  }
  function souzu(halved) {
    return function (seats, o) {
      if (o.kind === 'draw') { var d = noten(seats, o.tenpai || [], 3000); return { changes: d, deposit: sticks(d, o, 1000, null) }; }
      var c = zero(seats), winner = o.winners[0], honba = 2000 * (o.honba || 0), amount;
      var value = roundUp((winner === seats[0] ? 6 : 4) * riichiBase(n(o.fans, 0), n(o.fu, 0), n(o.yakuman, 0)), 1000);
      if (o.kind === 'discard') amount = value + honba;
      else if (halved) amount = roundUp(Math.ceil((value + honba) / 2), 1000);
      else amount = roundUp(Math.ceil(value / 2), 1000) + honba;
      pay(c, seats.filter(function (s) { return s !== winner; })[0], winner, amount);
      sticks(c, o, 1000, winner);
      return { changes: c, deposit: 0 };
    };
  }

  // MCR family (mcr.py)
  function mcr(selfDraw) {
    return function (seats, o) {
      var c = zero(seats);
      if (o.kind === 'self_draw') {
        var winner = o.winners[0], paid = selfDraw(n(o.fans, 0));
        seats.forEach(function (s) { c[s] = -paid[1]; });
        c[winner] = paid[0];
      } else if (o.kind === 'discard') {
        o.winners.forEach(function (w, i) {
          seats.forEach(function (payer) { if (payer !== w) pay(c, payer, w, payer === o.discarder ? 8 + n(o.fans, i) : 8); });
        });
      }
      return { changes: c, deposit: 0 };
    };
  }

  function shiragiku(seats, o) {  // three_player.py
    if (o.kind === 'draw') return { changes: noten(seats, o.tenpai || [], 6), deposit: 0 };
    var c = zero(seats), winner = o.winners[0];
    var value = n(o.yakuman, 0) ? 100 : Math.min(50, 2 + n(o.fans, 0) + (winner === seats[0] ? 1 : 0));
    var payers = o.kind === 'discard' ? [o.discarder] : seats.filter(function (s) { return s !== winner; });
    payers.forEach(function (p) { pay(c, p, winner, value + (o.honba || 0)); });
    return { changes: c, deposit: 0 };
  }

  function shieldTile(seats, o) {  // shield_tile.py
    var c = zero(seats);
    if (o.kind === 'draw') return { changes: c, deposit: 0 };
    var winner = o.winners[0], han = n(o.fans, 0);
    var value = { 1: 1000, 2: 2000, 3: 4000, 4: 8000 }[han] || 8000 + 2000 * (han - 4);
    if (o.kind === 'discard') { pay(c, o.discarder, winner, value); return { changes: c, deposit: 0 }; }
    var share = roundUp(Math.ceil(value / (seats.length - 1)), 100), exempt = o.open_riichi ? [] : (o.shielded || []);
    seats.forEach(function (p) { if (p !== winner && exempt.indexOf(p) < 0) pay(c, p, winner, share); });
    return { changes: c, deposit: 0 };
  }

  function yangzhou(seats, o) {  // yangzhou.py
    var c = zero(seats);
    if (o.kind === 'draw') return { changes: c, deposit: 0 };
    var fed = null;
    if (o.liable) fed = o.winners.filter(function (w) { return seats[(seats.indexOf(w) + seats.length - 1) % seats.length] === o.liable; })[0] || null;
    o.winners.forEach(function (w, i) {
      var fan = n(o.fans, i);
      if (o.kind === 'discard') pay(c, w === fed ? o.liable : o.discarder, w, 2 * fan);
      else if (w === fed) pay(c, o.liable, w, (seats.length - 1) * fan);
      else seats.forEach(function (p) { if (p !== w) pay(c, p, w, fan); });
    });
    return { changes: c, deposit: 0 };
  }

  var RULES = {
    'mcr': mcr(function (fan) { return [3 * (8 + fan), 8 + fan]; }),
    'mcr-duplicate-mahjongsoft': mcr(function (fan) { return [fan + 24, Math.ceil(fan / 3) + 8]; }),
    'riichi': riichi, 'souzu-2p': souzu(true), 'souzu-2p-honba-whole': souzu(false),
    'shiragiku-3p': shiragiku, 'shield-tile': shieldTile, 'yangzhou': yangzhou,
  };
  var STICKS = { 'riichi': 1000, 'souzu-2p': 1000, 'souzu-2p-honba-whole': 1000 };

  // The changes of ``outcome`` ({kind, winners, discarder, fans, fu, yakuman, honba, riichi,
  // tenpai, shielded, open_riichi, liable}) under the payment rule ``code`` for ``seats`` (dealer
  // first), with ``carried`` riichi sticks left on the set's table by earlier hands going to the
  // first winner (scoring/payments/counters.py): {changes: {seat: points}, deposit: points}, or
  // null for a rule this copy does not know (the typed rule) or an outcome it cannot price.
  function settle(code, seats, outcome, carried) {
    var rule = RULES[code];
    if (!rule || !outcome || !outcome.kind) return null;
    if (outcome.kind !== 'draw') {
      if (!outcome.winners || !outcome.winners.length) return null;
      if (outcome.kind === 'discard' && seats.indexOf(outcome.discarder) < 0) return null;
    }
    var settled = rule(seats, outcome);
    if (carried && outcome.kind !== 'draw') {
      var to = outcome.kind === 'discard'
        ? turnOrder(seats, outcome.discarder).filter(function (s) { return outcome.winners.indexOf(s) >= 0; })[0]
        : outcome.winners[0];
      settled.changes[to] += carried * (STICKS[code] || 0);
    }
    return settled;
  }

  root.dmjPayments = { settle: settle };
})(typeof window !== 'undefined' ? window : globalThis);
