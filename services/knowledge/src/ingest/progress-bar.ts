/**
 * A byte-weighted progress bar for `kb ingest` on stderr. On a terminal it redraws one line;
 * otherwise (CI logs, pipes) it prints one line per finished file so logs stay readable.
 */
export interface ProgressBar {
  update(doneBytes: number, label: string): void;
  finishFile(line: string): void;
  end(): void;
}

export function createProgressBar(out: NodeJS.WritableStream & { isTTY?: boolean }, totalBytes: number, totalFiles: number, width = 30): ProgressBar {
  let files = 0;
  const mb = (n: number) => (n / 1_048_576).toFixed(1);
  const render = (doneBytes: number, label: string) => {
    const fraction = totalBytes ? Math.min(1, doneBytes / totalBytes) : 1;
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${files}/${totalFiles} files  ${mb(doneBytes)}/${mb(totalBytes)} MB  ${label.slice(0, 40)}`;
  };
  return {
    update(doneBytes, label) {
      if (out.isTTY) out.write(`\r\x1b[2K${render(doneBytes, label)}`);
    },
    finishFile(line) {
      files++;
      if (out.isTTY) out.write(`\r\x1b[2K${line}\n`);
      else out.write(`${line}\n`);
    },
    end() {
      if (out.isTTY) out.write('\n');
    },
  };
}
