// Runs details.js's schedulerRows on a unit's page data with a minimal
// stand-in for the DOM (test/Emit/compile-debug-drawer.test).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const [dir, unitFile] = process.argv.slice(2);
function Element(tag) {
  this.tag = tag; this.children = []; this.className = ''; this._text = '';
}
Element.prototype.appendChild = function (c) { this.children.push(c); return c; };
Object.defineProperty(Element.prototype, 'textContent', {
  get() { return this._text + this.children.map((c) => c.textContent).join(' | '); },
  set(v) { this._text = String(v); this.children = []; },
});
const ctx = {
  document: {
    createElement: (t) => new Element(t),
    createTextNode: (t) => { const e = new Element('#text'); e._text = t; return e; },
  },
  console,
};
vm.createContext(ctx);
for (const f of ['util.js', 'model.js', 'details.js'])
  vm.runInContext(fs.readFileSync(path.join(dir, f), 'utf8'), ctx, { filename: f });
const d = JSON.parse(fs.readFileSync(unitFile, 'utf8'));
for (let k = 0; k < 3; ++k) {
  const post = { data: { nodes: d.post.nodes.map((a) => ({ name: a[0] })) } };
  const rows = vm.runInContext('schedulerRows', ctx)({ d, post }, k);
  if (!rows.length) { console.log('kernel ' + k + ': none'); continue; }
  for (const [title, fill] of rows) {
    const dd = new Element('dd');
    fill(dd);
    console.log('kernel ' + k + ': ' + title + ': ' + dd.textContent);
  }
}
