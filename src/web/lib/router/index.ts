// The app's router (see router.ts for why it is ours): import from here, never from a file inside.
export {
  Link,
  NavLink,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  useLocation,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from './components';
export {
  createBrowserRouter,
  createMemoryRouter,
  createRouter,
  ErrorResponse,
  isRouteErrorResponse,
  type RouteObject,
  type Router,
} from './router';
