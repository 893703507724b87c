// usage.go: strictUsage, so cobra's own commands exit 2 on a usage error.

package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// strictUsage makes cobra's own commands refuse what they do not know, so
// that every usage error exits 2: "padctl completion tcsh" (an unknown
// shell) and "padctl help nosuch" (an unknown topic) print help and exit
// 0 in cobra. It adds both commands now rather than when padctl runs.
func strictUsage(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "completion":
			c.Args = groupArgs
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		case "help":
			run := c.Run
			c.Run = nil
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					if target, rest, err := root.Find(args); err != nil || target == root || len(rest) > 0 {
						return usageErrorf("no help topic %q", strings.Join(args, " "))
					}
				}
				run(cmd, args)
				return nil
			}
		}
	}
}
