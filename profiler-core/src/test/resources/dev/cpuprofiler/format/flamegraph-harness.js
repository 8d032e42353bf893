// Runs a flame graph page's script under Node with a fake canvas that records what is drawn, and clicks its way
// to the deepest level: node flamegraph-harness.js page.html devicePixelRatio
// Each step hovers the row of the deepest level in view (the bottom row of an icicle, which the page opens as; the top
// row of an upright graph) and clicks
// the frame found there, as a user would, until the deepest level is in view or a click shows nothing new. Prints one JSON line: the canvas's backing height, its height in rows, whether every frame
// was drawn inside the canvas, the clicks it took and whether the deepest level was reached, and its frame's title.
'use strict';
const fs = require('fs');
const vm = require('vm');

const html = fs.readFileSync(process.argv[2], 'utf8');
const dpr = Number(process.argv[3] || '1');
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(m => m[1]);
const cssHeight = Number(/#canvas \{width: 100%; height: (\d+)px\}/.exec(html)[1]);

let frames = [];  // the rows of frames drawn since the last click: {y}
const ctx = {
    fillStyle: '', font: '',
    fillRect(x, y, w, h) { if (h === 15) frames.push(y); },
    fillText() {},
    scale() {}
};
const canvas = {
    offsetWidth: 1200, offsetHeight: cssHeight, offsetLeft: 0, offsetTop: 0, style: {}, title: '', width: 0,
    height: 0, getContext: () => ctx
};
const elements = {};
const element = id => id === 'canvas' ? canvas
    : elements[id] || (elements[id] = { style: {}, firstChild: {}, textContent: '', offsetLeft: 0, offsetTop: 0 });
const sandbox = {
    document: {
        getElementById: element,
        documentElement: { classList: { add() {}, toggle() { return false; } } },
        body: { style: { font: '12px Verdana' } }
    },
    getComputedStyle: () => ({ getPropertyValue: () => '#ffffff' }),
    devicePixelRatio: dpr,
    localStorage: { getItem: () => null, setItem() {} },
    matchMedia: () => ({ matches: false }),
    getSelection: () => ({ removeAllRanges() {}, selectAllChildren() {} }),
    prompt: () => null,
    scroll() {},
    console
};
sandbox.window = sandbox;
vm.createContext(sandbox);
for (const script of scripts) {
    vm.runInContext(script, sandbox);
}
vm.runInContext('globalThis.page = { levels, canvasHeight, inverted };', sandbox);
const page = sandbox.page;
const deepest = page.levels.length - 1;
const levelOf = new Map();
page.levels.forEach((l, level) => l.forEach(f => levelOf.set(f.title, level)));

let inside = true;
let clicks = 0;
let reached = false;
let title = null;
for (;;) {
    inside = inside && frames.length > 0 && frames.every(y => y >= 0 && y + 15 <= page.canvasHeight);
    // Only where a mouse can be: inside the canvas.
    const visible = frames.filter(y => y >= 0 && y + 15 <= page.canvasHeight);
    if (visible.length === 0) {
        break;
    }
    const deepestRow = page.inverted ? Math.max(...visible) : Math.min(...visible);
    sandbox.event = { offsetX: 600, offsetY: deepestRow + 8, altKey: false, ctrlKey: false };
    canvas.onmousemove();
    const previous = title;
    title = element('hl').firstChild.textContent;
    if (levelOf.get(title) === deepest) {
        reached = true;
        break;
    }
    if (title === previous || clicks === 100 || typeof canvas.onclick !== 'function') {
        break;  // a click brought nothing new into view
    }
    frames = [];
    canvas.onclick();
    clicks++;
}
console.log(JSON.stringify({ backingHeight: canvas.height, canvasHeight: page.canvasHeight, levels: page.levels.length,
    inside, clicks, reached, title }));
