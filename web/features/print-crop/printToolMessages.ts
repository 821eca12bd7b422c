/** Spec section 8 texts used by the crop tool. (Candidates for shared/: they are not there yet.) */
export const INVALID_IMAGE_MESSAGE = 'Please select a valid image file';
export const CROP_FAILED_MESSAGE = 'Failed to crop image. Please try again.';
export const FEATHER_SUCCESS_MESSAGE = 'Feather effect applied and print quality image generated!';
export const featherErrorMessage = (message: string | undefined) => `Error applying feather effect: ${message || 'Unknown error'}`;
export const CROP_TOOL_TITLE = 'Simple Print Crop Tool';
/** The file name a downloaded print file gets. */
export const PRINT_DOWNLOAD_NAME = 'framemerch-print.png';
