/**
 * The loopback API server of the sync screens' test, and the DOM at its origin (counting-dom.ts).
 * Imported first by the test, so both exist before React and the client load.
 */
import { startApiWithDom } from './support.tsx';

export const api = await startApiWithDom();
