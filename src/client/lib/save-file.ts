/**
 * Hands a downloaded file to the browser's own save (object URL + anchor with `download`), which
 * works the same in a tab and in the installed app, and frees the object URL afterwards.
 */

/** Saves `blob` as `filename` through the browser. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns: revoke a little later.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
