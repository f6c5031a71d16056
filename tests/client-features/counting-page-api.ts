/**
 * The loopback API server of the cash-count screen test, and the DOM at its origin
 * (counting-dom.ts). Imported first by the test, so both exist before React and the client load.
 */
import { startTestApi } from '../client/api-server.ts';
import { installDom } from './counting-dom.ts';

export const api = await startTestApi();
installDom(api.base);
