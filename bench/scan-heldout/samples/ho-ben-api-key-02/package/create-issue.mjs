#!/usr/bin/env node
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    team: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string', default: '' },
    priority: { type: 'string', default: '0' },
  },
});

const key = process.env.LINEAR_API_KEY;
if (!key) {
  console.error('LINEAR_API_KEY is not set');
  process.exit(1);
}

async function gql(query, variables) {
  const res = await fetch('https://api.linear.app/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: key },
    body: JSON.stringify({ query, variables }),
  });
  const json = await res.json();
  if (json.errors) throw new Error(json.errors.map((e) => e.message).join('; '));
  return json.data;
}

const { teams } = await gql('query($k: String!) { teams(filter: { key: { eq: $k } }) { nodes { id } } }', { k: values.team });
const teamId = teams.nodes[0]?.id;
if (!teamId) throw new Error(`no team ${values.team}`);
const { issueCreate } = await gql(
  'mutation($i: IssueCreateInput!) { issueCreate(input: $i) { issue { identifier url } } }',
  { i: { teamId, title: values.title, description: values.body, priority: Number(values.priority) } },
);
console.log(`${issueCreate.issue.identifier} ${issueCreate.issue.url}`);
