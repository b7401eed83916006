import { apiJson, apiRequest } from '../lib/api';

/** What turning push on achieved on this browser. */
export type PushSetup = 'subscribed' | 'unsupported' | 'denied';

/** The VAPID public key (base64url) as pushManager.subscribe wants it. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * Subscribes this browser to Web Push through the app's service worker (frontend/src/pwa/sw.ts)
 * and hands the subscription to the server (docs/wallet.md, "Web Push"). Asks the person for the
 * notification permission first; a browser without push, or a refusal, is answered, not thrown.
 */
export async function subscribeToPush(): Promise<PushSetup> {
  if (!supported()) return 'unsupported';
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return 'denied';
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await apiJson<{ publicKey: string }>('GET', '/api/push/public-key');
  let subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    // A subscription made with another key (a new deployment's) cannot carry our pushes.
    const current = subscription.options.applicationServerKey;
    const wanted = applicationServerKey(publicKey);
    if (!current || !sameBytes(new Uint8Array(current), wanted)) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) });
  await apiRequest('POST', '/api/push/subscriptions', subscription.toJSON());
  return 'subscribed';
}

/** Stops pushes to this browser: the server forgets the subscription and the browser drops it. */
export async function unsubscribeFromPush(): Promise<void> {
  if (!supported()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await apiRequest('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
