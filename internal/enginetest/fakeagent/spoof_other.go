//go:build !linux

package main

import "fmt"

// spoof needs Linux's packet sockets.
func spoof(string) bool {
	fmt.Println("error -1 spoof runs on Linux only")
	return false
}

// netinfo needs Linux's packet sockets.
func netinfo() bool {
	fmt.Println("error netinfo runs on Linux only")
	return false
}
