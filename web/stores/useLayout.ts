import { create } from 'zustand';
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants.ts';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;

function mobileQuery(): MediaQueryList | null {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function' ? null : window.matchMedia(MOBILE_QUERY);
}

interface LayoutState {
  /** Open beside the content on wide screens; an overlay, closed by default, on mobile. */
  sidebarOpen: boolean;
  toggleSidebar: () => void;
  closeSidebar: () => void;
  /**
   * The page asks for no sidebar at all (spec section 2: a profile whose owner is on the third
   * subscription tier); the menu button goes with it. Pages set it and clear it when they leave.
   */
  sidebarSuppressed: boolean;
  suppressSidebar: (suppressed: boolean) => void;
}

const initialMobile = mobileQuery()?.matches ?? false;

export const useLayout = create<LayoutState>()((set) => ({
  sidebarOpen: !initialMobile,
  toggleSidebar: () => set((s) => ({ sidebarOpen: !s.sidebarOpen })),
  closeSidebar: () => set({ sidebarOpen: false }),
  sidebarSuppressed: false,
  suppressSidebar: (suppressed) => set({ sidebarSuppressed: suppressed }),
}));

/** True when the viewport is in the mobile layout (at most MOBILE_BREAKPOINT_PX wide). */
export function isMobileViewport(): boolean {
  return mobileQuery()?.matches ?? false;
}

// Crossing the breakpoint puts the sidebar back in that layout's default state, so a
// window narrowed to mobile never ends up covered by an overlay it did not ask for.
mobileQuery()?.addEventListener('change', (event) => useLayout.setState({ sidebarOpen: !event.matches }));
