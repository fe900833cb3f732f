// theme.js: the dark and light themes.

// The theme: the system's (prefers-color-scheme) until the theme button
// picks one, which localStorage keeps for every page (the page's head
// applies it before the first paint).
function theme() {
  var t = document.documentElement.dataset.theme;
  if (t === 'dark' || t === 'light') return t;
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
function showTheme() {
  var b = $('theme-toggle');
  if (!b) return;
  var dark = theme() === 'dark';
  b.setAttribute('aria-pressed', String(dark));
  b.textContent = dark ? 'light' : 'dark';
  b.title = dark ? 'light theme (t)' : 'dark theme (t)';
}
function toggleTheme() {
  var t = theme() === 'dark' ? 'light' : 'dark';
  document.documentElement.dataset.theme = t;
  try { localStorage.setItem('tlp-theme', t); } catch (e) { /* storage off: this page only */ }
  showTheme();
}
