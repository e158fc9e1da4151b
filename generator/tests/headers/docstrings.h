/* hipgen-spec
# Doxygen comments become docstrings (the module's and the stub's): `@brief` and free text,
# `@param` with its direction, `@return(s)`; an `Args:` section lists what Python passes
# (not outputs), a `Returns:` section what the result tuple holds, then the header's
# `@returns` text. Enum and struct comments document their classes.
status: {enum: docStatus_t}
*/

/** Status codes of the doc library. */
typedef enum docStatus_t { docSuccess = 0, docError = 1 } docStatus_t;

/**
 * @brief A rectangle.
 *
 * Sizes are in pixels.
 */
typedef struct docRect { int width; int height; } docRect;

/**
 * @brief Computes the area of a rectangle.
 *
 * The area is width times height; a negative size is an error.
 *
 * @param [in] rect The rectangle,
 *     measured in pixels.
 * @param [in] scale Factor applied to both sides.
 * @param [out] area Where the area is written.
 * @returns #docSuccess, #docError
 */
docStatus_t docArea(const docRect* rect, int scale, long* area);

/// One-line comment of a function with an undocumented parameter.
docStatus_t docReset(int flags);

/** @return the library's version number. */
int docVersion(void);
