/**
 * Puts a secret's value on the clipboard without showing it. The value is read only now; where
 * the browser takes a pending clipboard item (ClipboardItem with a promise), the write starts
 * within the click, so the read may take its time without the browser refusing the write.
 * A failed read is the error thrown (not the browser's vaguer clipboard error).
 */
export async function copyValueToClipboard(read: () => Promise<string>): Promise<void> {
  const clipboard = navigator.clipboard;
  if (typeof ClipboardItem !== "undefined" && typeof clipboard.write === "function") {
    const value = read();
    const blob = value.then((text) => new Blob([text], { type: "text/plain" }));
    try {
      await clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    } catch (error) {
      await value;
      throw error;
    }
    return;
  }
  await clipboard.writeText(await read());
}
