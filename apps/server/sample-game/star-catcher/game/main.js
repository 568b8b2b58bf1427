// Star Catcher: move the basket with the arrow keys, A/D or the mouse; catch stars, dodge bombs.
(function () {
  'use strict';
  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');
  var W = canvas.width;
  var H = canvas.height;
  var input = Engine.createInput(canvas);

  // Something shows at once, before the images arrive.
  ctx.fillStyle = '#1b2a5c';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#ffffff';
  ctx.font = '20px sans-serif';
  ctx.fillText('Loading...', W / 2 - 45, H / 2);

  var sounds = {
    catch: Engine.loadSound('../assets/sfx/catch.wav?v=1'),
    boom: Engine.loadSound('../assets/sfx/boom.wav?v=1'),
    // The tune ships as OGG and MP3: the engine loads the first the browser plays (Chromium: the OGG).
    music: Engine.loadSound(['../assets/sfx/music.ogg?v=1', '../assets/sfx/music.mp3?v=1'], { loop: true, volume: 0.4 }),
  };

  Engine.loadImages({
    background: '../assets/img/background.jpg?v=1',
    basket: '../assets/img/basket.png?v=1',
    stars: '../assets/img/star-sheet.png?v=1',
    bomb: '../assets/img/bomb.png?v=1',
    cloud: '../assets/img/cloud.png?v=1',
    heart: '../assets/img/heart.png?v=1',
    title: '../assets/img/splash.png?v=1',
  }).then(start, function (error) {
    ctx.fillStyle = '#ff8080';
    ctx.fillText(error.message, 20, 40);
  });

  function start(img) {
    var STAR_FRAMES = 4;
    var FRAME = img.stars.height;
    var state = 'title';
    var basket = { x: W / 2, y: H - 40, w: img.basket.width, h: img.basket.height, speed: 360 };
    var drops = [];
    var clouds = [{ x: 60, y: 60, v: 12 }, { x: 380, y: 120, v: 18 }];
    var score = 0;
    var lives = 3;
    var spawn = 0;
    var time = 0;
    var musicStarted = false;

    function reset() {
      drops = [];
      score = 0;
      lives = 3;
      spawn = 0;
      state = 'playing';
      if (!musicStarted) {
        sounds.music.play();
        musicStarted = true;
      }
    }

    function update(dt) {
      time += dt;
      clouds.forEach(function (c) {
        c.x += c.v * dt;
        if (c.x > W) c.x = -img.cloud.width;
      });
      if (state !== 'playing') {
        if (input.pressed) reset();
        input.pressed = false;
        return;
      }
      input.pressed = false;
      if (input.keys.ArrowLeft || input.keys.a) basket.x -= basket.speed * dt;
      if (input.keys.ArrowRight || input.keys.d) basket.x += basket.speed * dt;
      if (input.mouseX !== null && !input.keys.ArrowLeft && !input.keys.ArrowRight) {
        basket.x += (input.mouseX - basket.x) * Math.min(1, dt * 12);
      }
      basket.x = Math.max(basket.w / 2, Math.min(W - basket.w / 2, basket.x));

      spawn -= dt;
      if (spawn <= 0) {
        var bomb = Math.random() < 0.25;
        drops.push({ x: 20 + Math.random() * (W - 40), y: -32, v: 120 + Math.random() * 90 + score * 2, bomb: bomb });
        spawn = Math.max(0.35, 1 - score * 0.02);
      }
      drops.forEach(function (d) { d.y += d.v * dt; });
      drops = drops.filter(function (d) {
        var caught = d.y > basket.y - basket.h / 2 - 12 && d.y < basket.y + 8 && Math.abs(d.x - basket.x) < basket.w / 2;
        if (caught) {
          if (d.bomb) {
            lives -= 1;
            sounds.boom.play();
            if (lives <= 0) state = 'over';
          } else {
            score += 1;
            sounds.catch.play();
          }
          return false;
        }
        return d.y < H + 40;
      });
    }

    function draw() {
      ctx.drawImage(img.background, 0, 0, W, H);
      clouds.forEach(function (c) { ctx.drawImage(img.cloud, c.x, c.y); });
      if (state === 'title') {
        ctx.drawImage(img.title, (W - img.title.width) / 2, 70);
        banner('Click or press Space to start');
        return;
      }
      var frame = Math.floor(time * 8) % STAR_FRAMES;
      drops.forEach(function (d) {
        if (d.bomb) ctx.drawImage(img.bomb, d.x - img.bomb.width / 2, d.y - img.bomb.height / 2);
        else ctx.drawImage(img.stars, frame * FRAME, 0, FRAME, FRAME, d.x - FRAME / 2, d.y - FRAME / 2, FRAME, FRAME);
      });
      ctx.drawImage(img.basket, basket.x - basket.w / 2, basket.y - basket.h / 2);
      for (var i = 0; i < lives; i++) ctx.drawImage(img.heart, W - 34 - i * 30, 10);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 22px sans-serif';
      ctx.fillText('Stars: ' + score, 14, 32);
      if (state === 'over') banner('Game over - ' + score + ' stars. Click or press Space');
    }

    function banner(text) {
      ctx.fillStyle = 'rgba(0, 0, 0, 0.55)';
      ctx.fillRect(0, H - 110, W, 50);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 20px sans-serif';
      ctx.fillText(text, (W - ctx.measureText(text).width) / 2, H - 78);
    }

    canvas.focus();
    Engine.run(update, draw);
  }
})();
