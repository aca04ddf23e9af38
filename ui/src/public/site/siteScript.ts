/**
 * The one classic script of every public page, loaded in <head> (a file, since the CSP allows no inline
 * script): blocking on `/`, where it must run before the first paint, deferred elsewhere. It stays tiny and
 * touches nothing the page's styles depend on (a class on <html> would restyle the whole page after parse):
 * - on `/`, a visitor with a session goes to /inbox (SPEC §2; the SPA's session is the `balcao.user` and
 *   `balcao.workspace` keys of localStorage written by ui/src/providers/session.ts, which cannot be imported
 *   here: it listens to `window` as it loads; test/e2e/publicSite.test.ts logs in and checks the redirect);
 * - a link to a <dialog>'s id opens it as a modal (Escape and a click outside close it), and a link marked
 *   `data-close` inside it closes it. Without JavaScript the CSS shows the dialog by :target instead; a dialog
 *   closed here is marked `closed`, so a `#id` still in the address does not show it again.
 */
export const SITE_SCRIPT = `(function () {
  try {
    if (location.pathname === '/' && localStorage.getItem('balcao.user') && localStorage.getItem('balcao.workspace')) {
      location.replace('/inbox');
      return;
    }
  } catch (e) {}
  function dialogFor(hash) {
    var d = hash.length > 1 ? document.getElementById(hash.slice(1)) : null;
    return d && d.tagName === 'DIALOG' && d.showModal ? d : null;
  }
  function open(d) {
    d.classList.remove('closed');
    if (!d.open) d.showModal();
  }
  document.addEventListener('close', function (e) {
    if (e.target && e.target.tagName === 'DIALOG') e.target.classList.add('closed');
  }, true);
  document.addEventListener('click', function (e) {
    var target = e.target;
    if (target && target.tagName === 'DIALOG' && target.open) return target.close();
    var a = target && target.closest ? target.closest('a[href^="#"]') : null;
    if (!a) return;
    var shown = a.hasAttribute('data-close') ? a.closest('dialog') : null;
    if (shown && shown.open) {
      e.preventDefault();
      return shown.close();
    }
    var d = dialogFor(a.getAttribute('href'));
    if (d) {
      e.preventDefault();
      open(d);
    }
  });
  function fromAddress() {
    var d = dialogFor(location.hash);
    if (d) open(d);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fromAddress);
  else fromAddress();
  window.addEventListener('hashchange', fromAddress);
})();
`;
