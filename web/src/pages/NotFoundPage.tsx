import { Link } from 'react-router-dom';
import { PageHeader } from '../components/Layout';
import { usePageTitle } from '../hooks/usePageTitle';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <>
      <PageHeader title="Page not found" subtitle="There is no page at this address." />
      <p>
        <Link className="button button-primary" to="/">
          Browse skills
        </Link>
      </p>
    </>
  );
}
