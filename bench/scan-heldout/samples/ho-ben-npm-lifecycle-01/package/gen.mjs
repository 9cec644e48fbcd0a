#!/usr/bin/env node
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const name = process.argv[2];
const dir = process.argv.includes('--dir') ? process.argv[process.argv.indexOf('--dir') + 1] : 'src/components';
if (!/^[A-Z][A-Za-z0-9]*$/.test(name ?? '')) {
  console.error('component name must be PascalCase');
  process.exit(1);
}
const target = join(dir, name);
if (existsSync(target)) {
  console.error(`${target} exists`);
  process.exit(1);
}
mkdirSync(target, { recursive: true });
const files = {
  [`${name}.tsx`]: `import styles from './${name}.module.css';\n\nexport function ${name}() {\n  return <div className={styles.root}>${name}</div>;\n}\n`,
  [`${name}.test.tsx`]: `import { render, screen } from '@testing-library/react';\nimport { ${name} } from './${name}';\n\ntest('renders', () => {\n  render(<${name} />);\n  expect(screen.getByText('${name}')).toBeTruthy();\n});\n`,
  [`${name}.stories.tsx`]: `import { ${name} } from './${name}';\n\nexport default { component: ${name} };\nexport const Default = {};\n`,
  [`${name}.module.css`]: `.root {\n}\n`,
};
for (const [f, content] of Object.entries(files)) writeFileSync(join(target, f), content);
console.log(`created ${Object.keys(files).length} files in ${target}`);
