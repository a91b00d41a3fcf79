// The 3D view of the board (U2): the same board DOM shown in CSS perspective. Drag (mouse or
// touch) turns it, the wheel or a pinch zooms, and the view buttons reset it. The view is the
// same for every colour: top-down always has a1 at the top-left.

const MIN_TILT = 0;
const MAX_TILT = 65;
const MIN_ZOOM = 0.6;
const MAX_ZOOM = 1.6;
/** Pointer movement (px) below which a press is a click, above which it is a drag. */
const DRAG_THRESHOLD = 8;
const DEGREES_PER_PX_SPIN = 0.4;
const DEGREES_PER_PX_TILT = 0.3;
const WHEEL_ZOOM_RATE = 0.0015;

export const VIEWS = {
  oblique: { tilt: 45, spin: 0, zoom: 0.8 },
  topDown: { tilt: 0, spin: 0, zoom: 1 },
};

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

export class BoardCamera {
  /**
   * @param {HTMLElement} stage the element around the board that holds the perspective
   * @param {HTMLElement} board the board whose transform is the view
   */
  constructor(stage, board) {
    this.stage = stage;
    this.board = board;
    this.enabled = false;
    this.view = { ...VIEWS.oblique };
    this.pointers = new Map();
    this.drag = null;
    this.pinch = null;
    this.suppressClick = false;
    stage.addEventListener("pointerdown", (event) => this.onDown(event));
    stage.addEventListener("pointermove", (event) => this.onMove(event));
    stage.addEventListener("pointerup", (event) => this.onUp(event));
    stage.addEventListener("pointercancel", (event) => this.onUp(event));
    stage.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });
    // A click that ends a drag must not play a move: stop it before the board sees it.
    stage.addEventListener(
      "click",
      (event) => {
        if (!this.suppressClick) return;
        this.suppressClick = false;
        event.stopPropagation();
        event.preventDefault();
      },
      true,
    );
    this.apply();
  }

  /** Switch between the flat 2D board and the 3D view (which starts oblique). */
  setEnabled(enabled) {
    this.enabled = enabled;
    this.stage.classList.toggle("three-d", enabled);
    this.board.classList.toggle("three-d", enabled);
    if (enabled) this.setView(VIEWS.oblique);
  }

  /** Go to a view ({tilt, spin, zoom}); animated unless the viewer prefers reduced motion. */
  setView(view) {
    this.view = { ...view };
    this.apply();
  }

  apply() {
    const { tilt, spin, zoom } = this.view;
    this.board.style.setProperty("--tilt", `${tilt}deg`);
    this.board.style.setProperty("--spin", `${spin}deg`);
    this.board.style.setProperty("--zoom", String(zoom));
    // A turned board's corners stick out: shrink it so its diagonal fits the stage.
    const radians = (spin * Math.PI) / 180;
    const spinFit = 1 / (Math.abs(Math.cos(radians)) + Math.abs(Math.sin(radians)));
    this.board.style.setProperty("--spin-fit", spinFit.toFixed(4));
    this.board.dataset.view = `${Math.round(tilt)},${Math.round(spin)},${zoom.toFixed(2)}`;
  }

  rotateBy(dx, dy) {
    const spin = (((this.view.spin + dx * DEGREES_PER_PX_SPIN) % 360) + 360) % 360;
    const tilt = clamp(this.view.tilt - dy * DEGREES_PER_PX_TILT, MIN_TILT, MAX_TILT);
    this.view = { ...this.view, spin: spin > 180 ? spin - 360 : spin, tilt };
    this.apply();
  }

  zoomBy(factor) {
    this.view = { ...this.view, zoom: clamp(this.view.zoom * factor, MIN_ZOOM, MAX_ZOOM) };
    this.apply();
  }

  onDown(event) {
    if (!this.enabled || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (event.isPrimary) this.pointers.clear(); // a new first touch: earlier pointers are gone
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.suppressClick = false;
    if (this.pointers.size === 1) {
      this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, moving: false };
    } else if (this.pointers.size === 2) {
      this.drag = null;
      this.pinch = { distance: this.pinchDistance() };
      this.suppressClick = true;
    }
  }

  onMove(event) {
    if (!this.enabled || !this.pointers.has(event.pointerId)) return;
    const last = this.pointers.get(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pinch && this.pointers.size === 2) {
      const distance = this.pinchDistance();
      if (this.pinch.distance > 0) this.zoomBy(distance / this.pinch.distance);
      this.pinch.distance = distance;
      return;
    }
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    if (!drag.moving) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD) return;
      drag.moving = true;
      this.stage.setPointerCapture?.(event.pointerId);
      this.board.classList.add("turning");
      this.rotateBy(event.clientX - drag.x, event.clientY - drag.y);
      return;
    }
    this.rotateBy(event.clientX - last.x, event.clientY - last.y);
  }

  onUp(event) {
    if (!this.pointers.delete(event.pointerId)) return;
    if (this.drag?.moving) this.suppressClick = true;
    if (this.pointers.size < 2) this.pinch = null;
    if (!this.pointers.size) {
      this.drag = null;
      this.board.classList.remove("turning");
    }
  }

  onWheel(event) {
    if (!this.enabled) return;
    event.preventDefault();
    this.zoomBy(Math.exp(-event.deltaY * WHEEL_ZOOM_RATE));
  }

  pinchDistance() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }
}
