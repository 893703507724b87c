package doctor

// What doctor's external tests reach inside for.

// Check and Difference are what doctor --json prints.
type (
	Check      = check
	Difference = difference
)
