// The photo's GPS position (issue 41): removed from every result by default, kept only when the user
// says so here. The choice is the user's preference in this browser, so it is asked once, not per run.
import './file-options.css';
import { MapPin } from 'lucide-react';
import { useId, useState } from 'react';

const KEEP_LOCATION_KEY = 'pp.keepLocation';

function storedChoice(): boolean {
  try {
    return window.localStorage.getItem(KEEP_LOCATION_KEY) === '1';
  } catch {
    return false;
  }
}

/** Whether results keep the photo's location, remembered in this browser (off unless chosen). */
export function useKeepLocation(): [boolean, (keep: boolean) => void] {
  const [keep, setKeep] = useState(storedChoice);
  const choose = (next: boolean) => {
    setKeep(next);
    try {
      if (next) window.localStorage.setItem(KEEP_LOCATION_KEY, '1');
      else window.localStorage.removeItem(KEEP_LOCATION_KEY);
    } catch {
      // Private modes may refuse storage: the choice holds for this page.
    }
  };
  return [keep, choose];
}

export function KeepLocationOption({ keep, onChange }: { keep: boolean; onChange: (keep: boolean) => void }) {
  const hintId = useId();
  return (
    <div className="pp-field">
      <label className="pp-keep-location">
        <input
          type="checkbox"
          checked={keep}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <MapPin size={16} aria-hidden="true" />
        Keep where the photo was taken
      </label>
      <p id={hintId} className="pp-field__hint">
        {keep
          ? 'Results keep the photo’s GPS location.'
          : 'The photo’s GPS location is removed from results; its colours, camera and copyright details stay.'}
      </p>
    </div>
  );
}
