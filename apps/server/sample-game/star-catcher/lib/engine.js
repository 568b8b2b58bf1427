// A tiny game engine written for the Reskin Studio sample game: asset loading, input and the frame loop.
(function () {
  'use strict';

  function loadImage(url) {
    return new Promise(function (resolve, reject) {
      var image = new Image();
      image.onload = function () { resolve(image); };
      image.onerror = function () { reject(new Error('could not load ' + url)); };
      image.src = url;
    });
  }

  function loadImages(urls) {
    var names = Object.keys(urls);
    return Promise.all(names.map(function (name) { return loadImage(urls[name]); })).then(function (images) {
      var byName = {};
      names.forEach(function (name, i) { byName[name] = images[i]; });
      return byName;
    });
  }

  var soundTypes = { ogg: 'audio/ogg; codecs="vorbis"', mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4' };

  // A sound shipped in several formats loads the first one the browser can play, as game audio libraries do
  // (a list of sources, the first playable wins).
  function playableUrl(urls) {
    if (typeof urls === 'string') return urls;
    var probe = document.createElement('audio');
    for (var i = 0; i < urls.length; i++) {
      var extension = urls[i].split('?')[0].split('.').pop().toLowerCase();
      if (probe.canPlayType(soundTypes[extension] || '') !== '') return urls[i];
    }
    return urls[0];
  }

  // Sounds play through <audio> elements; browsers allow sound only after the player clicks or presses a key.
  function loadSound(urls, options) {
    var audio = new Audio(playableUrl(urls));
    audio.preload = 'auto';
    audio.loop = !!(options && options.loop);
    audio.volume = options && options.volume !== undefined ? options.volume : 1;
    return {
      element: audio,
      play: function () {
        try {
          if (!audio.loop) audio.currentTime = 0;
          var playing = audio.play();
          if (playing && playing.catch) playing.catch(function () {});
        } catch (e) { /* sound is optional */ }
      },
      stop: function () { audio.pause(); },
    };
  }

  function createInput(canvas) {
    var input = { keys: {}, mouseX: null, pressed: false };
    window.addEventListener('keydown', function (event) {
      input.keys[event.key] = true;
      if (event.key === ' ' || event.key === 'Enter') input.pressed = true;
      if (event.key.indexOf('Arrow') === 0 || event.key === ' ') event.preventDefault();
    });
    window.addEventListener('keyup', function (event) { input.keys[event.key] = false; });
    canvas.addEventListener('mousemove', function (event) {
      var box = canvas.getBoundingClientRect();
      input.mouseX = ((event.clientX - box.left) / box.width) * canvas.width;
    });
    canvas.addEventListener('mousedown', function () { input.pressed = true; canvas.focus(); });
    return input;
  }

  function run(update, draw) {
    var last = performance.now();
    function frame(now) {
      var dt = Math.min(0.05, (now - last) / 1000);
      last = now;
      update(dt);
      draw();
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  }

  window.Engine = { loadImages: loadImages, loadSound: loadSound, createInput: createInput, run: run };
})();
