import { ImageUp, RefreshCw, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { formatCount } from '../../../../contract/input-limits';
import { FormMessage } from '../../../components/FormMessage';
import { INLINE_MESSAGES } from '../tool-rules';
import { droppedFiles } from './dropped-files';

/** An image the user picked, read as a data URL. */
export type PickedImage = { dataUrl: string; name: string; size: number };

export type ImageSize = { width: number; height: number };

/** "Single-image drop zones accept one file: .jpeg, .jpg, .png, .webp" (product-spec.md section 5). */
export const ACCEPTED_EXTENSIONS = ['.jpeg', '.jpg', '.png', '.webp'] as const;
const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** The file input's `accept`: the extensions and types above. */
export const ACCEPT = [...ACCEPTED_EXTENSIONS, ...ACCEPTED_TYPES].join(',');

function isAccepted(file: File): boolean {
  const name = file.name.toLowerCase();
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  if (extension) return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extension);
  // Pasted images may come without a usable name: their type decides.
  return ACCEPTED_TYPES.includes(file.type);
}

/** The file-size limit of a drop zone and what refuses a larger file (given its size). */
export type ByteLimit = { maxBytes: number; message: (bytes: number) => string };

/** A batch tool's drop zone: it takes several files (a folder too), which go to `onFiles` instead of being refused. */
export type SeveralFiles = {
  onFiles: (files: File[]) => void;
  /** A line under the limits: that several images make a batch. */
  hint: string;
};

/** Why a file cannot be used, or null. */
export function rejectionOf(files: readonly File[], limit: ByteLimit | undefined): string | null {
  if (files.length !== 1) return INLINE_MESSAGES.oneFile;
  const file = files[0] as File;
  if (!isAccepted(file)) return INLINE_MESSAGES.wrongType;
  if (file.size === 0) return INLINE_MESSAGES.empty;
  if (limit && file.size > limit.maxBytes) return limit.message(file.size);
  return null;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('no result')));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The preview's caption: the pixel size and the file size, each when known, joined by a dot (a stored
 * image sent from another tool or resumed with its job has no file size here: no stray separator).
 */
export function imageFacts(size: ImageSize | null, bytes: number): string {
  return [
    size ? `${formatCount(size.width)} × ${formatCount(size.height)} px` : null,
    bytes > 0 ? formatBytes(bytes) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

type Props = {
  label: string;
  hint: string;
  /** A second line under the hint: the limits the page checks before sending (size, pixels, shape). */
  limits?: string;
  image: PickedImage | null;
  /** A new image (the page drops its previous result), or null after ×. */
  onImage: (image: PickedImage | null) => void;
  /** Called when the preview knows the image's pixel size. */
  onMeasured?: (size: ImageSize | null) => void;
  disabled?: boolean;
  /** Reject larger files, before reading them, with this limit's message (the spec's own at 5 MB). */
  byteLimit?: ByteLimit;
  /** Several files at once make a batch (the six batch tools); one file keeps the page as it is. */
  several?: SeveralFiles;
};

/**
 * The one image input of the tool pages: click (or Enter on the focused zone) to choose a file, drop
 * one on it, or paste one anywhere on the page. One PNG, JPG or WEBP file; a preview with its size
 * and a × to remove it. Files it cannot use get a short message under it (docs/decisions/006).
 */
export function ImageDropZone({
  label,
  hint,
  limits,
  image,
  onImage,
  onMeasured,
  disabled = false,
  byteLimit,
  several,
}: Props) {
  const inputId = useId();
  const hintId = useId();
  const limitsId = useId();
  const severalId = useId();
  const messageId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejection, setRejection] = useState<string | null>(null);
  const [size, setSize] = useState<ImageSize | null>(null);
  const accept = useRef<(files: readonly File[]) => void>(() => {});

  accept.current = (files) => {
    if (disabled || files.length === 0) return;
    if (several && files.length > 1) {
      setRejection(null);
      several.onFiles([...files]);
      return;
    }
    const problem = rejectionOf(files, byteLimit);
    setRejection(problem);
    if (problem) return;
    const file = files[0] as File;
    readAsDataUrl(file).then(
      (dataUrl) => {
        if (!dataUrl.startsWith('data:image/')) {
          setRejection(INLINE_MESSAGES.prepareError);
          return;
        }
        setSize(null);
        onMeasured?.(null);
        onImage({ dataUrl, name: file.name || 'Pasted image', size: file.size });
      },
      () => setRejection(INLINE_MESSAGES.readError),
    );
  };

  // Paste from the clipboard anywhere on the page (text pastes are left alone).
  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData?.files ?? []);
      if (files.length === 0) return;
      event.preventDefault();
      accept.current(files);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [disabled]);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!several) {
      accept.current(Array.from(event.dataTransfer.files));
      return;
    }
    // A dropped folder is read through (its entries are taken now, during the event).
    void droppedFiles(event.dataTransfer).then((files) => accept.current(files));
  };

  const dragHandlers = {
    onDragEnter: (event: DragEvent) => {
      event.preventDefault();
      if (!disabled) setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop,
  };

  const remove = () => {
    setRejection(null);
    setSize(null);
    onMeasured?.(null);
    onImage(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <div className="pp-field">
      <span className="pp-field__label" id={`${inputId}-label`}>
        {label}
      </span>
      <div className="pp-dropzone" data-dragging={dragging} data-disabled={disabled} {...dragHandlers}>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ACCEPT}
          multiple={several ? true : undefined}
          className="pp-dropzone__input pp-visually-hidden"
          disabled={disabled}
          aria-labelledby={`${inputId}-label ${inputId}-action`}
          aria-describedby={[hintId, limits ? limitsId : null, several ? severalId : null, messageId]
            .filter(Boolean)
            .join(' ')}
          data-testid="image-input"
          onChange={(event) => {
            accept.current(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
        {image ? (
          <figure className="pp-dropzone__preview">
            <img
              src={image.dataUrl}
              alt={`Your image: ${image.name}`}
              onLoad={(event) => {
                const measured = { width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight };
                setSize(measured);
                onMeasured?.(measured);
              }}
              onError={() => {
                // The bytes are not an image the browser can read (a text file named fake.png): the
                // image goes, so the action is off, and one message says why.
                remove();
                setRejection(INLINE_MESSAGES.notAnImage);
              }}
            />
            <figcaption className="pp-dropzone__caption">
              <span className="pp-dropzone__name">{image.name}</span>
              <span className="pp-tabular" data-testid="image-facts">
                {imageFacts(size, image.size)}
              </span>
            </figcaption>
            <button
              type="button"
              className="pp-icon-button pp-dropzone__remove"
              aria-label="Remove image"
              disabled={disabled}
              onClick={remove}
            >
              <X size={20} aria-hidden="true" />
            </button>
            <label htmlFor={inputId} className="pp-link-button pp-dropzone__replace" id={`${inputId}-action`}>
              <RefreshCw size={16} aria-hidden="true" />
              Replace image
            </label>
          </figure>
        ) : (
          <label htmlFor={inputId} className="pp-dropzone__empty">
            <span className="pp-panel__icon">
              <ImageUp size={28} aria-hidden="true" />
            </span>
            <span className="pp-dropzone__lead">Drop an image here or paste it</span>
            <span className="pp-button pp-button--secondary pp-dropzone__select" id={`${inputId}-action`}>
              Select Image
            </span>
          </label>
        )}
      </div>
      <p id={hintId} className="pp-field__hint">
        {hint}
      </p>
      {limits ? (
        <p id={limitsId} className="pp-field__hint" data-testid="image-limits">
          {limits}
        </p>
      ) : null}
      {several ? (
        <p id={severalId} className="pp-field__hint" data-testid="batch-hint">
          {several.hint}
        </p>
      ) : null}
      <FormMessage id={messageId} message={rejection ? { tone: 'error', text: rejection } : null} />
    </div>
  );
}
