import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Layout } from './components/Layout';
import { NoticeProvider } from './components/Notices';
import { Loading } from './components/States';
import { BrowsePage } from './pages/BrowsePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SignInPage } from './pages/SignInPage';
import { RequireAdmin, RequireUser } from './session/guards';
import { SessionProvider } from './session/session';

// The front page loads at once; the rest (the Markdown renderer, the semver rules of the upload form, the
// admin screens) arrives when first visited.
const RegisterPage = lazy(() => import('./pages/RegisterPage').then((m) => ({ default: m.RegisterPage })));
const SkillPage = lazy(() => import('./pages/SkillPage').then((m) => ({ default: m.SkillPage })));
const MySkillsPage = lazy(() => import('./pages/MySkillsPage').then((m) => ({ default: m.MySkillsPage })));
const NewSkillPage = lazy(() => import('./pages/NewSkillPage').then((m) => ({ default: m.NewSkillPage })));
const ManageSkillPage = lazy(() => import('./pages/ManageSkillPage').then((m) => ({ default: m.ManageSkillPage })));
const OrgPage = lazy(() => import('./pages/OrgPage').then((m) => ({ default: m.OrgPage })));
const MyOrgsPage = lazy(() => import('./pages/MyOrgsPage').then((m) => ({ default: m.MyOrgsPage })));
const ApiKeysPage = lazy(() => import('./pages/ApiKeysPage').then((m) => ({ default: m.ApiKeysPage })));
const CallLogsPage = lazy(() => import('./pages/CallLogsPage').then((m) => ({ default: m.CallLogsPage })));
const ModerationQueuePage = lazy(() => import('./pages/admin/ModerationQueuePage').then((m) => ({ default: m.ModerationQueuePage })));
const AdminSkillsPage = lazy(() => import('./pages/admin/AdminSkillsPage').then((m) => ({ default: m.AdminSkillsPage })));
const ReportsQueuePage = lazy(() => import('./pages/admin/ReportsQueuePage').then((m) => ({ default: m.ReportsQueuePage })));
const RescanPage = lazy(() => import('./pages/admin/RescanPage').then((m) => ({ default: m.RescanPage })));
const DevicePage = lazy(() => import('./pages/DevicePage').then((m) => ({ default: m.DevicePage })));
const WebhooksPage = lazy(() => import('./pages/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));
const NotificationsPage = lazy(() => import('./pages/NotificationsPage').then((m) => ({ default: m.NotificationsPage })));
const AdminUsersPage = lazy(() => import('./pages/admin/AdminUsersPage').then((m) => ({ default: m.AdminUsersPage })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

export function App() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <NoticeProvider>
          <Routes>
            <Route element={<Layout />}>
              <Route index element={<BrowsePage />} />
              <Route
                path="skills/:slug"
                element={
                  <Page>
                    <SkillPage />
                  </Page>
                }
              />
              {/* A scoped name, @acme/pdf-tools, is two segments of the path. */}
              <Route
                path="skills/:scope/:slug"
                element={
                  <Page>
                    <SkillPage />
                  </Page>
                }
              />
              <Route
                path="orgs/:handle"
                element={
                  <Page>
                    <OrgPage />
                  </Page>
                }
              />
              <Route path="signin" element={<SignInPage />} />
              <Route
                path="register"
                element={
                  <Page>
                    <RegisterPage />
                  </Page>
                }
              />
              <Route
                path="me/skills"
                element={
                  <RequireUser>
                    <Page>
                      <MySkillsPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/skills/new"
                element={
                  <RequireUser>
                    <Page>
                      <NewSkillPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/skills/:slug"
                element={
                  <RequireUser>
                    <Page>
                      <ManageSkillPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/skills/:scope/:slug"
                element={
                  <RequireUser>
                    <Page>
                      <ManageSkillPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/orgs"
                element={
                  <RequireUser>
                    <Page>
                      <MyOrgsPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="device"
                element={
                  <RequireUser>
                    <Page>
                      <DevicePage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/keys"
                element={
                  <RequireUser>
                    <Page>
                      <ApiKeysPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="me/logs"
                element={
                  <RequireUser>
                    <Page>
                      <CallLogsPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="webhooks"
                element={
                  <RequireUser>
                    <Page>
                      <WebhooksPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="notifications"
                element={
                  <RequireUser>
                    <Page>
                      <NotificationsPage />
                    </Page>
                  </RequireUser>
                }
              />
              <Route
                path="admin"
                element={
                  <RequireAdmin>
                    <Page>
                      <ModerationQueuePage />
                    </Page>
                  </RequireAdmin>
                }
              />
              <Route
                path="admin/reports"
                element={
                  <RequireAdmin>
                    <Page>
                      <ReportsQueuePage />
                    </Page>
                  </RequireAdmin>
                }
              />
              <Route
                path="admin/scans"
                element={
                  <RequireAdmin>
                    <Page>
                      <RescanPage />
                    </Page>
                  </RequireAdmin>
                }
              />
              <Route
                path="admin/skills"
                element={
                  <RequireAdmin>
                    <Page>
                      <AdminSkillsPage />
                    </Page>
                  </RequireAdmin>
                }
              />
              <Route
                path="admin/users"
                element={
                  <RequireAdmin>
                    <Page>
                      <AdminUsersPage />
                    </Page>
                  </RequireAdmin>
                }
              />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </NoticeProvider>
      </SessionProvider>
    </BrowserRouter>
  );
}
