// A Unity-like WebGL build of about 5 MB for the play frame bench (play-frame.bench.ts): the page of Unity's default
// template (a style sheet with five images) loads a loader script, which loads the framework script, the .wasm
// (compiled and instantiated) and the .data file in parallel, then draws with WebGL and tells the app's page
// (postMessage) once that frame is on screen. Deterministic: the same bytes on every machine and run.
import { deflateSync } from 'node:zlib';
import { random } from './browser-support';

/** The message the game's page posts to its parent a frame after its first WebGL draw. */
export const firstFrameMessage = 'bench-first-frame';

/** Sizes of the build's big files, as a small Unity 2022 project built without compression. */
const sizes = { loader: 24 * 1024, framework: 900 * 1024, wasm: 3 * 1024 * 1024, data: 1100 * 1024 };

const page = `<!DOCTYPE html>
<html lang="en-us">
  <head>
    <meta charset="utf-8">
    <title>Unity WebGL Player | Bench</title>
    <link rel="stylesheet" href="TemplateData/style.css">
  </head>
  <body>
    <div id="unity-container" class="unity-desktop">
      <canvas id="unity-canvas" width="960" height="600" tabindex="-1"></canvas>
      <div id="unity-loading-bar">
        <div id="unity-logo"></div>
        <div id="unity-progress-bar-empty"><div id="unity-progress-bar-full"></div></div>
      </div>
      <div id="unity-footer">
        <div id="unity-webgl-logo"></div>
        <div id="unity-fullscreen-button"></div>
        <div id="unity-build-title">Bench</div>
      </div>
    </div>
    <script>
      var buildUrl = "Build";
      var config = {
        dataUrl: buildUrl + "/bench.data",
        frameworkUrl: buildUrl + "/bench.framework.js",
        codeUrl: buildUrl + "/bench.wasm",
        companyName: "Bench",
        productName: "Bench",
        productVersion: "1.0",
      };
      var canvas = document.querySelector("#unity-canvas");
      var script = document.createElement("script");
      script.src = buildUrl + "/bench.loader.js";
      script.onload = function () {
        createUnityInstance(canvas, config, function (progress) {
          document.querySelector("#unity-progress-bar-full").style.width = 100 * progress + "%";
        }).then(function () {
          document.querySelector("#unity-loading-bar").style.display = "none";
        });
      };
      document.body.appendChild(script);
    </script>
  </body>
</html>
`;

const styleSheet = `body { padding: 0; margin: 0 }
#unity-container { position: absolute }
#unity-canvas { background: #231F20 }
#unity-loading-bar { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%) }
#unity-logo { width: 154px; height: 130px; background: url('unity-logo-dark.png') no-repeat center }
#unity-progress-bar-empty { width: 141px; height: 18px; margin-top: 10px; margin-left: 6.5px; background: url('progress-bar-empty-dark.png') no-repeat center }
#unity-progress-bar-full { width: 0%; height: 18px; margin-top: 10px; background: url('progress-bar-full-dark.png') no-repeat center }
#unity-footer { position: relative }
#unity-webgl-logo { float: left; width: 204px; height: 38px; background: url('webgl-logo.png') no-repeat center }
#unity-build-title { float: right; margin-right: 10px; line-height: 38px; font-family: arial; font-size: 18px }
#unity-fullscreen-button { float: right; width: 38px; height: 38px; background: url('fullscreen-button.png') no-repeat center }
`;

/** A valid PNG of `width` x `height` with a deterministic pattern (the template's images are a few KB each). */
function png(width: number, height: number, seed: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const next = random(seed);
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * 4 + 1) + 1 + x * 4;
      rows.set([(x * 7 + seed * 40) & 0xf0, (y * 5) & 0xf0, next() < 0.02 ? 255 : 0, 255], at);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Script text of about `size` bytes: functions over identifiers and numbers from a seeded generator. */
function scriptPadding(size: number, seed: number, prefix: string): string {
  const next = random(seed);
  const words = Array.from({ length: 3000 }, () => `_${Math.floor(next() * 2 ** 40).toString(36)}`);
  const word = () => words[Math.floor(next() * words.length)]!;
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const [a, b, c] = [word(), word(), word()];
    const line =
      `function ${prefix}${i}_${a}(${b}, ${c}) { var x = ${b}[${Math.floor(next() * 65536)}] | 0;` +
      ` if (x > ${Math.floor(next() * 1000)}) { ${c}.${a} = x * ${(next() * 100).toFixed(3)}; }` +
      ` return ${b}.length + x + ${c}.${word()}; }\n`;
    parts.push(line);
    length += line.length;
  }
  return parts.join('');
}

/** The loader: Unity's createUnityInstance, loading the framework, the code and the data in parallel. */
function loader(): Buffer {
  const code = `
function createUnityInstance(canvas, config, onProgress) {
  var Module = { canvas: canvas };
  var framework = new Promise(function (resolve, reject) {
    var script = document.createElement("script");
    script.src = config.frameworkUrl;
    script.onload = function () { resolve(unityFramework); };
    script.onerror = reject;
    document.body.appendChild(script);
  });
  var imports = { env: { abort: function () { throw new Error("abort"); } } };
  var code = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetch(config.codeUrl), imports)
    : fetch(config.codeUrl).then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, imports); });
  var data = fetch(config.dataUrl).then(function (r) { return r.arrayBuffer(); });
  onProgress(0.1);
  return Promise.all([framework, code, data]).then(function (loaded) {
    onProgress(1);
    return loaded[0](Module, loaded[1].instance, new Uint8Array(loaded[2]));
  });
}
`;
  return Buffer.from(code + scriptPadding(sizes.loader - code.length, 11, 'unityLoader'));
}

/** The framework: its padding, then what runs the game's first frame (WebGL: a textured quad from the data). */
function framework(): Buffer {
  const code = `
function unityFramework(Module, instance, data) {
  var result = instance.exports.main(data.length, data[0]);
  var gl = Module.canvas.getContext("webgl2") || Module.canvas.getContext("webgl");
  var compile = function (type, source) {
    var shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    return shader;
  };
  var program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, "attribute vec2 p; varying vec2 uv; void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }"));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, "precision mediump float; varying vec2 uv; uniform sampler2D t; void main() { gl_FragColor = texture2D(t, uv); }"));
  gl.linkProgram(program);
  gl.useProgram(program);
  var buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  var at = gl.getAttribLocation(program, "p");
  gl.enableVertexAttribArray(at);
  gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
  var texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 256, 256, 0, gl.RGBA, gl.UNSIGNED_BYTE, data.subarray(0, 256 * 256 * 4));
  gl.clearColor((result & 255) / 255, 0.2, 0.3, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  return new Promise(function (resolve) {
    requestAnimationFrame(function () {
      parent.postMessage(${JSON.stringify(firstFrameMessage)}, "*");
      resolve(Module);
    });
  });
}
`;
  return Buffer.from(scriptPadding(sizes.framework - code.length, 12, 'unityFramework') + code);
}

/** An unsigned LEB128 number, as WebAssembly's binary format writes sizes and indices. */
function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** A signed LEB128 number (i32.const's operand). */
function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

const section = (id: number, content: Buffer) =>
  Buffer.concat([Buffer.from([id, ...leb(content.length)]), content]);

/**
 * A valid WebAssembly module of about `sizes.wasm` bytes: functions of (i32, i32) -> i32 doing arithmetic on their
 * arguments and calling each other, a memory and a data segment, as a compiled engine is (it compresses about 3x).
 */
function wasm(): Buffer {
  const next = random(13);
  const constants = Array.from({ length: 512 }, () => Math.floor(next() * 2 ** 31) - 2 ** 30);
  const operators = [0x6a, 0x6b, 0x6c, 0x71, 0x72, 0x73, 0x77]; // i32 add, sub, mul, and, or, xor, rotl
  const dataBytes = 256 * 1024;
  const bodies: Buffer[] = [];
  let total = dataBytes;
  while (total < sizes.wasm - 64) {
    const index = bodies.length;
    const code: number[] = [0x00, 0x20, 0x00]; // no locals; local.get 0
    const steps = 20 + Math.floor(next() * 60);
    for (let s = 0; s < steps; s++) {
      if (index > 0 && next() < 0.08) {
        // call an earlier function with (acc, local 1)
        code.push(0x20, 0x01, 0x10, ...leb(Math.floor(next() * index)));
      } else {
        code.push(0x41, ...sleb(constants[Math.floor(next() * constants.length)]!));
        code.push(operators[Math.floor(next() * operators.length)]!);
      }
    }
    code.push(0x0b);
    bodies.push(Buffer.from([...leb(code.length), ...code]));
    total += code.length + 6;
  }
  const count = bodies.length;
  const segment = Buffer.alloc(dataBytes);
  for (let i = 0; i < dataBytes; i++) segment[i] = i % 7 === 0 ? Math.floor(next() * 256) : (i >> 5) & 0xff;
  return Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    section(1, Buffer.from([0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f])),
    section(3, Buffer.concat([Buffer.from(leb(count)), Buffer.alloc(count)])),
    section(5, Buffer.from([0x01, 0x00, 0x08])), // one memory of 8 pages (512 KB)
    section(7, Buffer.from([0x01, 0x04, ...Buffer.from('main'), 0x00, 0x00])), // main: the first function (calls none)
    section(10, Buffer.concat([Buffer.from(leb(count)), ...bodies])),
    section(11, Buffer.concat([Buffer.from([0x01, 0x00, 0x41, 0x00, 0x0b, ...leb(dataBytes)]), segment])),
  ]);
}

/** The data file: textures (smooth gradients with noise) and serialized objects, as a Unity .data holds. */
function data(): Buffer {
  const next = random(14);
  const bytes = Buffer.alloc(sizes.data);
  const textureBytes = Math.floor(sizes.data * 0.7);
  for (let i = 0; i < textureBytes; i += 4) {
    const pixel = i / 4;
    bytes[i] = (pixel & 0xff) ^ Math.floor(next() * 8);
    bytes[i + 1] = ((pixel >> 8) & 0xff) ^ Math.floor(next() * 8);
    bytes[i + 2] = Math.floor(next() * 256);
    bytes[i + 3] = 255;
  }
  const objects = scriptPadding(sizes.data - textureBytes, 15, 'asset');
  bytes.write(objects, textureBytes, 'latin1');
  return bytes;
}

/** The build's files by path; `Build/bench.*` are its big files. */
export function unityLikeBuild(): { path: string; content: Buffer }[] {
  const images = [
    ['unity-logo-dark.png', 154, 130],
    ['progress-bar-empty-dark.png', 141, 18],
    ['progress-bar-full-dark.png', 141, 18],
    ['webgl-logo.png', 204, 38],
    ['fullscreen-button.png', 38, 38],
  ] as const;
  return [
    { path: 'index.html', content: Buffer.from(page) },
    { path: 'TemplateData/style.css', content: Buffer.from(styleSheet) },
    ...images.map(([name, width, height], i) => ({
      path: `TemplateData/${name}`,
      content: png(width, height, i + 1),
    })),
    { path: 'Build/bench.loader.js', content: loader() },
    { path: 'Build/bench.framework.js', content: framework() },
    { path: 'Build/bench.wasm', content: wasm() },
    { path: 'Build/bench.data', content: data() },
  ];
}
