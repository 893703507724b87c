module github.com/padinterview/padapi

go 1.23

require github.com/hashicorp/go-retryablehttp v0.7.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/jarcoal/httpmock v1.4.2 // indirect
)
