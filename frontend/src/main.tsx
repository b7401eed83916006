// The entry: styles (index.html links them, so they apply before the first paint) and a loader.
import './styles/tokens.css';
import './styles/base.css';
import './ui/ui.css';
import './styles/app.css';
import './styles/shell.css';

/**
 * Resolves once the browser has painted what the HTML already holds. A module script runs as soon
 * as the HTML is parsed, which, with the script at hand (cached, or fast network), is before the
 * first paint; the app's code is only evaluated after it, so a pre-rendered page shows at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    // A tab opened in the background gets no animation frames until it is shown.
    setTimeout(resolve, 100);
  });
}

// Only a pre-rendered page or a signed-in page's shell has something to paint first; the bare
// shell (an empty #root) starts the app at once. The documents modulepreload boot's chunks
// (scripts/prerender.mjs), so they are at hand.
const root = document.getElementById('root');
const prerendered = !!root && (root.hasAttribute('data-prerendered') || root.hasAttribute('data-shell'));
void (prerendered ? afterFirstPaint() : Promise.resolve()).then(() => import('./boot'));
