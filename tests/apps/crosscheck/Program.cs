// Answers what Microsoft.Diagnostics.NETCore.Client says about a process, one NAME=VALUE per line:
//   crosscheck info PID   -> the ProcessInfo fields (the client's GetProcessInfo is internal, so it
//                            is reached by reflection; it does the 3 -> 2 -> 1 fallback itself)
//   crosscheck env PID    -> the environment from GetProcessEnvironment, sorted by name
using System.Reflection;
using Microsoft.Diagnostics.NETCore.Client;

namespace ClrAttach.CrossCheck;

public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length != 2 || !int.TryParse(args[1], out int pid))
        {
            Console.Error.WriteLine("usage: crosscheck info|env PID");
            return 2;
        }
        var client = new DiagnosticsClient(pid);
        if (args[0] == "env")
        {
            foreach (var pair in client.GetProcessEnvironment().OrderBy(p => p.Key, StringComparer.Ordinal))
                Console.WriteLine($"{pair.Key}={pair.Value}");
            return 0;
        }
        if (args[0] == "info")
        {
            var method = typeof(DiagnosticsClient).GetMethod("GetProcessInfo",
                BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public)
                ?? throw new MissingMethodException("DiagnosticsClient.GetProcessInfo");
            object info = method.Invoke(client, null)!;
            foreach (var prop in info.GetType().GetProperties(BindingFlags.Instance |
                         BindingFlags.Public | BindingFlags.NonPublic).OrderBy(p => p.Name))
                Console.WriteLine($"{prop.Name}={prop.GetValue(info)}");
            return 0;
        }
        Console.Error.WriteLine($"unknown question '{args[0]}'");
        return 2;
    }
}
