// selection.js: the selection's one owner, after Perfetto UI's
// SelectionManager. It holds the selected item (items.js: a pre-grad or
// post-grad node, kernels at a launch or a definition, a user source
// line) and the hovered one, a preview that is not a selection. Nothing
// else changes them: a click, a key, a drawer chip, the filter or the URL
// fragment asks select() / clear() / hover(), and the views (the panels'
// highlight, the drawer, the URL fragment) read the selection here and are
// told of each change, in the order they subscribed (main.js).

function SelectionManager() {
  this.item = null;
  this.hovered = null;
  this.selectListeners = [];
  this.hoverListeners = [];
  this.ms = undefined; // what the last select() took, its views included
}
/// The selected item, or null.
SelectionManager.prototype.selected = function () { return this.item; };
/// The hovered item, or null.
SelectionManager.prototype.hovering = function () { return this.hovered; };
/// Call \p f(item, opts) after each select() (item null: cleared).
SelectionManager.prototype.onSelect = function (f) { this.selectListeners.push(f); };
/// Call \p f(item) after each change of the hovered item.
SelectionManager.prototype.onHover = function (f) { this.hoverListeners.push(f); };
/// Select \p item (null: nothing) and tell every view, even when it is
/// the item already selected (a click on it again scrolls to it anew).
/// opts.scrollAll: scroll the item's own panel too (a selection from
/// outside that panel: a chip, a key, the filter, the URL).
SelectionManager.prototype.select = function (item, opts) {
  var t0 = performance.now();
  opts = opts || {};
  this.item = item ? Object.freeze(item) : null;
  for (var i = 0; i < this.selectListeners.length; ++i) this.selectListeners[i](this.item, opts);
  this.ms = performance.now() - t0;
};
SelectionManager.prototype.clear = function () { this.select(null); };
SelectionManager.prototype.hover = function (item) {
  if (item === this.hovered) return;
  this.hovered = item;
  for (var i = 0; i < this.hoverListeners.length; ++i) this.hoverListeners[i](item);
};
/// Forget the selection and the hover without telling anyone: another unit
/// is shown, whose views are built with neither.
SelectionManager.prototype.reset = function () {
  this.item = null;
  this.hovered = null;
};

var selection = new SelectionManager();
