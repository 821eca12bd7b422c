/**
 * The demo content `npm start` creates on an empty data directory: creators with channels
 * and profiles, and short generated videos across the feed's categories. Seed keys are stable
 * so seeding again (or after a crash) never duplicates a row.
 */
import type { VideoCategorySlug } from '../../shared/categories.ts';

export interface DemoCreator {
  seedKey: string;
  email: string;
  username: string;
  displayName: string;
  bio: string;
}

export interface DemoVideo {
  seedKey: string;
  creator: string;
  title: string;
  description: string;
  category: VideoCategorySlug;
  /** An ffmpeg lavfi source expression; each video looks and sounds different. */
  source: string;
  toneHz: number;
  viewCount: number;
  /** How long ago it was published, in hours, so the feed has a believable order. */
  ageHours: number;
}

const creator = (username: string, displayName: string, bio: string): DemoCreator => ({
  seedKey: `demo-creator-${username}`,
  email: `${username}@demo.framemerch.local`,
  username,
  displayName,
  bio,
});

export const DEMO_CREATORS: DemoCreator[] = [
  creator('pixelpete', 'Pixel Pete', 'Retro game runs and speed tricks.'),
  creator('lunatunes', 'Luna Tunes', 'Synths, loops and late-night sessions.'),
  creator('trailmix', 'Trail Mix', 'Hikes, maps and the views at the top.'),
  creator('chefnova', 'Chef Nova', 'Fast food, made slowly.'),
  creator('whiskerwatch', 'Whisker Watch', 'Cats being cats, mostly.'),
  creator('circuitsage', 'Circuit Sage', 'Electronics explained on a bench.'),
  creator('laughtrack', 'Laugh Track', 'Sketches in under a minute.'),
  creator('goalline', 'Goal Line', 'Highlights and drills.'),
  creator('framebyframe', 'Frame by Frame', 'Animation tests and tiny films.'),
  creator('mathmoments', 'Math Moments', 'Proofs you can watch.'),
  creator('skylinecity', 'Skyline City', 'Cities from above.'),
  creator('gardengrid', 'Garden Grid', 'Growing things in small spaces.'),
];

let order = 0;
const video = (
  creatorName: string,
  category: VideoCategorySlug,
  title: string,
  source: string,
  toneHz: number,
  viewCount: number,
): DemoVideo => {
  order += 1;
  return {
    seedKey: `demo-video-${String(order).padStart(2, '0')}`,
    creator: creatorName,
    title,
    description: `${title}. A short demo clip generated for FrameMerch.`,
    category,
    source,
    toneHz,
    viewCount,
    ageHours: order * 7,
  };
};

export const DEMO_VIDEOS: DemoVideo[] = [
  video('pixelpete', 'gaming', 'Speedrun Warp Zone', 'testsrc2=size=1280x720:rate=30', 440, 15_320),
  video('lunatunes', 'music', 'Neon Synth Loop', 'mandelbrot=size=1280x720:rate=30', 523, 1_250_400),
  video('trailmix', 'travel', 'Summit at Sunrise', 'testsrc2=size=1280x720:rate=30,hue=h=120', 330, 842),
  video('chefnova', 'food', 'Colour Bar Cake', 'smptehdbars=size=1280x720:rate=30', 392, 3_400),
  video('whiskerwatch', 'animals', 'Cat vs Laser Grid', 'life=size=1280x720:rate=30:mold=10:ratio=0.3:death_color=#202040:life_color=#f0a030', 660, 98_765),
  video('circuitsage', 'tech', 'Oscilloscope Basics', 'testsrc=size=1280x720:rate=30', 880, 12_001),
  video('laughtrack', 'comedy', 'The Long Pause', 'rgbtestsrc=size=1280x720:rate=30', 294, 999),
  video('goalline', 'sports', 'Top Corner Drill', 'cellauto=size=1280x720:rate=30:rule=110', 349, 45_000),
  video('framebyframe', 'film', 'Tiny Film No. 3', 'mandelbrot=size=1280x720:rate=30:start_scale=1.5', 587, 2_100_000),
  video('mathmoments', 'education', 'Visual Proof of Squares', 'testsrc2=size=1280x720:rate=30:alpha=128', 415, 7_777),
  video('skylinecity', 'travel', 'Night Grid Flyover', 'cellauto=size=1280x720:rate=30:rule=30', 247, 1_000),
  video('gardengrid', 'education', 'Seed Spacing Chart', 'smptebars=size=1280x720:rate=30', 370, 12),
  video('pixelpete', 'gaming', 'Boss Pattern Study', 'life=size=1280x720:rate=30:mold=25:life_color=#30e060', 494, 320_000),
  video('lunatunes', 'music', 'Sine Choir', 'smptehdbars=size=1280x720:rate=30,hue=h=200:s=1.5', 262, 56),
];
