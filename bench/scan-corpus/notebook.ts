// A Jupyter notebook written the way Jupyter saves one, for samples that ship code in notebook cells.

export interface Cell {
  type: 'code' | 'markdown';
  source: string;
}

/** A Jupyter notebook (nbformat 4) of the given cells, written the way Jupyter saves one. */
export function notebook(cells: Cell[]): string {
  const lines = (s: string): string[] => s.split(/(?<=\n)/);
  return `${JSON.stringify(
    {
      cells: cells.map((c) =>
        c.type === 'code'
          ? { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: lines(c.source) }
          : { cell_type: 'markdown', metadata: {}, source: lines(c.source) },
      ),
      metadata: {
        kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
        language_info: { name: 'python' },
      },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )}\n`;
}
