import { LogoMark } from '../components/LogoMark';

/** Shown while the first page's chunk loads. */
export function AppLoading() {
  return (
    <div className="pp-app-loading" role="status">
      <LogoMark size={48} />
      <span className="pp-visually-hidden">Loading Picture Palette…</span>
    </div>
  );
}
