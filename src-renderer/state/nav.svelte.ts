/** The screens, addressed by the URL hash so a reload shows the same screen. */
export type Route =
  | { name: 'batches' }
  | { name: 'new' }
  | { name: 'results'; batchId: number | null }
  | { name: 'item'; itemId: number }
  | { name: 'settings' };

export function parseHash(hash: string): Route {
  const [, name = '', arg] = hash.replace(/^#/, '').split('/');
  // Ids are safe integers (the contract refuses larger ones): a hand-edited 1e20 is no id.
  const n = Number(arg);
  const id = Number.isSafeInteger(n) && n > 0 ? n : null;
  switch (name) {
    case 'new':
      return { name: 'new' };
    case 'results':
      return { name: 'results', batchId: id };
    case 'item':
      return id ? { name: 'item', itemId: id } : { name: 'results', batchId: null };
    case 'settings':
      return { name: 'settings' };
    default:
      return { name: 'batches' };
  }
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'results':
      return route.batchId ? `#/results/${route.batchId}` : '#/results';
    case 'item':
      return `#/item/${route.itemId}`;
    default:
      return `#/${route.name}`;
  }
}

/** Current screen; follows the browser's back/forward. */
export class NavState {
  route = $state<Route>(parseHash(typeof location === 'undefined' ? '' : location.hash));

  constructor() {
    if (typeof window !== 'undefined') window.addEventListener('hashchange', () => (this.route = parseHash(location.hash)));
  }

  go(route: Route): void {
    this.route = route;
    const hash = routeHash(route);
    if (typeof location !== 'undefined' && location.hash !== hash) {
      location.hash = hash;
      // Marks the new history entry as reached from another screen of the app, so "Back" knows
      // that history.back() stays in the app (browser back and forward restore the mark).
      history.replaceState({ ...(history.state as object | null), picscanFromApp: true }, '');
    }
  }

  /**
   * Back to the previous screen when this one was opened from the app; else (a link opened in a
   * new tab, a bookmark, the app started on this screen) to `fallback` rather than out of the app
   * or nowhere.
   */
  back(fallback: Route): void {
    const state = typeof history === 'undefined' ? null : (history.state as { picscanFromApp?: boolean } | null);
    if (state?.picscanFromApp) history.back();
    else this.go(fallback);
  }
}

export const nav = new NavState();
