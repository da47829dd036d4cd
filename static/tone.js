// A short tone where the browser allows sound (a page the person has not touched yet may not
// play one): window.dmjTone(frequency in Hz, seconds). Used by the calls page (a new call), the
// table page's clock and the projector (the time is up); the words on the page say it anyway.
(function () {
  'use strict';
  window.dmjTone = function (frequency, seconds) {
    try {
      var audio = new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + seconds);
    } catch (e) { /* no sound allowed */ }
  };
})();
