// Compiles a template string into a function of `data`, the way lodash.template and EJS do.
const escapeMap = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (v) => String(v ?? '').replace(/[&<>"']/g, (c) => escapeMap[c]);

export function compile(source) {
  let body = "let __out = '';\nwith (data) {\n";
  let last = 0;
  const re = /<%([=-]?)([\s\S]+?)%>/g;
  for (let m; (m = re.exec(source)); ) {
    body += `__out += ${JSON.stringify(source.slice(last, m.index))};\n`;
    if (m[1] === '=') body += `__out += __escape(${m[2].trim()});\n`;
    else if (m[1] === '-') body += `__out += (${m[2].trim()});\n`;
    else body += `${m[2].trim()}\n`;
    last = re.lastIndex;
  }
  body += `__out += ${JSON.stringify(source.slice(last))};\n}\nreturn __out;`;
  // eslint-disable-next-line no-new-func -- compiling templates is this module's purpose
  const fn = new Function('data', '__escape', body);
  return (data) => fn(data, escape);
}
