import '@fontsource-variable/inter';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/pages.css';
import './styles/landing.css';
import './styles/accounts.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { routes } from './app/routes';
import { createBrowserRouter, RouterProvider } from './lib/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const router = createBrowserRouter(routes);

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
