// scrapediff reads two scrapes of heaptap's /debug/pprof/allocs and subtracts the older from the
// newer as the continuous-profiling backends do: the older scaled by -1, then profile.Merge. It
// prints, per allocating Java method (the frame under the allocated type), the difference in
// alloc_objects and alloc_space, one "site <method> <objects> <bytes>" line each, for
// ContinuousIT to check against what the target counted itself.
//
// Built offline in GOPATH mode against Debian's golang-github-google-pprof-dev:
//   GOPATH=/usr/share/gocode GO111MODULE=off go build -o scrapediff main.go
package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/google/pprof/profile"
)

func read(path string) *profile.Profile {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, path+":", err)
		os.Exit(2)
	}
	return p
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: scrapediff OLDER NEWER")
		os.Exit(2)
	}
	older, newer := read(os.Args[1]), read(os.Args[2])
	older.Scale(-1)
	diff, err := profile.Merge([]*profile.Profile{newer, older})
	if err != nil {
		fmt.Fprintln(os.Stderr, "merge:", err)
		os.Exit(2)
	}
	objects, space := -1, -1
	for i, t := range diff.SampleType {
		switch t.Type {
		case "alloc_objects":
			objects = i
		case "alloc_space":
			space = i
		}
	}
	if objects < 0 || space < 0 {
		fmt.Fprintln(os.Stderr, "no alloc_objects/alloc_space sample types")
		os.Exit(2)
	}
	perSite := map[string][2]int64{}
	for _, s := range diff.Sample {
		if len(s.Location) < 2 || len(s.Location[1].Line) == 0 {
			continue
		}
		name := s.Location[1].Line[0].Function.Name
		v := perSite[name]
		v[0] += s.Value[objects]
		v[1] += s.Value[space]
		perSite[name] = v
	}
	names := make([]string, 0, len(perSite))
	for n := range perSite {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("site %s %d %d\n", n, perSite[n][0], perSite[n][1])
	}
}
