// data.js: the units this page can show and their models. A unit's data
// is a <script type="application/json" class="tlp-unit"> block of the
// page, parsed and made into a model (model.js) the first time it is
// shown; a directory's unit page also lists the other pages' units
// (units.js, window.TLP_UNITS) for the unit selector.

/// The page's kind: "single" (one page, every unit), "unit" (a unit page of
/// a directory) or "index".
var mode = document.body.dataset.mode;
var units = []; // {id, name, file?, el?}
var unitCache = new Map(); // id -> model

/// Read the unit list: the page's data blocks, named from units.js or the
/// overview's table.
function loadUnits() {
  var blocks = document.querySelectorAll('script.tlp-unit');
  var here = new Map();
  Array.prototype.forEach.call(blocks, function (b) { here.set(b.dataset.unit, b); });
  var listed = window.TLP_UNITS; // units.js, directory output
  if (mode === 'unit' && Array.isArray(listed)) {
    units = listed.map(function (u) { return { id: u[0], name: u[1], file: u[2], el: here.get(u[0]) }; });
    if (!units.some(function (u) { return u.el; }))
      here.forEach(function (el, id) { units.push({ id: id, name: id, el: el }); });
  } else {
    here.forEach(function (el, id) {
      units.push({ id: id, name: id, el: el });
    });
    // Names come from the data; read them cheaply from the overview.
    Array.prototype.forEach.call(document.querySelectorAll('#overview tr[data-unit] a'), function (a) {
      var id = a.closest('tr').dataset.unit;
      var u = findUnit(id);
      if (u) u.name = a.textContent;
    });
  }
}

function findUnit(id) { return units.find(function (x) { return x.id === id; }); }
/// Whether the page carries unit \p id's data.
function hasUnit(id) { return units.some(function (u) { return u.id === id && u.el; }); }
/// The first unit the page carries, or undefined.
function firstUnit() { return (units.find(function (u) { return u.el; }) || {}).id; }

function unitModel(id) {
  if (unitCache.has(id)) return unitCache.get(id);
  var u = findUnit(id);
  if (!u || !u.el) return null;
  var m = buildModel(JSON.parse(u.el.textContent));
  unitCache.set(id, m);
  return m;
}
